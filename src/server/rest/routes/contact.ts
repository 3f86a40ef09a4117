import { route } from '../define'

export const contactRoutes = [route({ method: 'POST', path: '/contact', status: 201, body: true, call: (c, r) => c.contact.create(r.body) })]
