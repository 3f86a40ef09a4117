// The account page's calls (/profile): the caller's own account, sessions and linked sign-ins, under /user.
import { route } from '../define'

export const profileRoutes = [
  route({ method: 'PATCH', path: '/user/profile/username', body: true, call: (c, r) => c.profile.updateUsername(r.body) }),
  route({ method: 'PATCH', path: '/user/profile/email', body: true, call: (c, r) => c.profile.updateEmail(r.body) }),
  route({ method: 'PUT', path: '/user/profile/password', body: true, call: (c, r) => c.profile.updatePassword(r.body) }),
  route({ method: 'GET', path: '/user/sessions', call: (c) => c.profile.sessions.list() }),
  route({ method: 'DELETE', path: '/user/sessions/:id', call: (c, r) => c.profile.sessions.delete({ id: r.params.id }) }),
  route({ method: 'GET', path: '/user/sign-ins', call: (c) => c.profile.signIns.list() }),
  route({
    method: 'DELETE',
    path: '/user/sign-ins/:provider/:subject',
    call: (c, r) => c.profile.signIns.unlink({ provider: r.params.provider, subject: r.params.subject }),
  }),
  route({ method: 'DELETE', path: '/user/account', body: true, call: (c, r) => c.profile.delete(r.body) }),
]
