import { route } from '../define'

export const chartsRoutes = [route({ method: 'GET', path: '/charts/:region', call: (c, r) => c.charts.byRegion({ region: r.params.region }) })]
