import { route } from '../define'

export const remoteRoutes = [route({ method: 'GET', path: '/playlist', call: (c, r) => c.remote.playlist({ url: r.query.url }) })]
