import { route, unchecked } from '../define'

export const remoteRoutes = [route({ method: 'GET', path: '/playlist', call: (c, r) => c.remote.playlist(unchecked({ url: r.query.url })) })]
