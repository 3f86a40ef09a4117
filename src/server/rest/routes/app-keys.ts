import { route } from '../define'

// A member's app keys for OpenSubsonic apps (docs/rest-api.md "App keys").
export const appKeyRoutes = [
  route({ method: 'GET', path: '/user/app-keys', call: (c) => c.appKeys.list() }),
  route({ method: 'POST', path: '/user/app-keys', status: 201, body: true, call: (c, r) => c.appKeys.create(r.body) }),
  route({ method: 'DELETE', path: '/user/app-keys/:id', call: (c, r) => c.appKeys.revoke({ id: r.params.id }) }),
]
