import { route } from '../define'

export const authRoutes = [
  route({ method: 'POST', path: '/auth/signup', status: 201, body: true, call: (c, r) => c.auth.signup(r.body) }),
  route({ method: 'POST', path: '/auth/login', body: true, call: (c, r) => c.auth.login(r.body) }),
  route({ method: 'POST', path: '/auth/logout', call: (c) => c.auth.logout() }),
  route({ method: 'POST', path: '/auth/forgot-password', body: true, call: (c, r) => c.auth.forgotPassword(r.body) }),
  route({
    method: 'POST',
    path: '/auth/reset-password/:token',
    body: true,
    call: (c, r) => c.auth.resetPassword({ ...r.body, token: r.params.token }),
  }),
  route({ method: 'GET', path: '/auth/session', call: (c) => c.auth.session() }),
]
