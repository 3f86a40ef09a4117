import { route, unchecked } from '../define'

export const chartsRoutes = [route({ method: 'GET', path: '/charts/:region', call: (c, r) => c.charts.byRegion(unchecked({ region: r.params.region })) })]
