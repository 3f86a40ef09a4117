// The account page's calls (/profile): the caller's own account and sessions, under /user.
import { route } from '../define'

export const profileRoutes = [
  route({ method: 'PATCH', path: '/user/profile/username', body: true, call: (c, r) => c.profile.updateUsername(r.body) }),
  route({ method: 'PATCH', path: '/user/profile/email', body: true, call: (c, r) => c.profile.updateEmail(r.body) }),
  route({ method: 'PUT', path: '/user/profile/password', body: true, call: (c, r) => c.profile.updatePassword(r.body) }),
  route({ method: 'GET', path: '/user/sessions', call: (c) => c.profile.sessions.list() }),
  route({ method: 'DELETE', path: '/user/sessions/:id', call: (c, r) => c.profile.sessions.delete({ id: r.params.id }) }),
  route({ method: 'DELETE', path: '/user/account', body: true, call: (c, r) => c.profile.delete(r.body) }),
]
