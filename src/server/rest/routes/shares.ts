import { route } from '../define'

// A member's share links (docs/rest-api.md "Share links"); the public page's calls are tRPC only.
export const shareRoutes = [
  route({ method: 'GET', path: '/user/shares', call: (c) => c.shares.list() }),
  route({ method: 'POST', path: '/user/shares', status: 201, body: true, call: (c, r) => c.shares.create(r.body) }),
  route({ method: 'DELETE', path: '/user/shares/:id', call: (c, r) => c.shares.revoke({ id: r.params.id }) }),
]
