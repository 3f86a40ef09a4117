import { route, unchecked } from '../define'

export const authRoutes = [
  route({ method: 'POST', path: '/auth/signup', status: 201, body: true, call: (c, r) => c.auth.signup(unchecked(r.body)) }),
  route({ method: 'POST', path: '/auth/login', body: true, call: (c, r) => c.auth.login(unchecked(r.body)) }),
  route({ method: 'POST', path: '/auth/logout', call: (c) => c.auth.logout() }),
  route({ method: 'POST', path: '/auth/forgot-password', body: true, call: (c, r) => c.auth.forgotPassword(unchecked(r.body)) }),
  route({
    method: 'POST',
    path: '/auth/reset-password/:token',
    body: true,
    call: (c, r) => c.auth.resetPassword(unchecked({ ...(r.body as object), token: r.params.token })),
  }),
  route({ method: 'GET', path: '/auth/session', call: (c) => c.auth.session() }),
]
