// Admin REST paths. The folder update, whose path the admin UI's call list leaves open, is
// PATCH /admin/users/:userId/folders/:folderId, beside the DELETE of the same folder.
import { route } from '../define'

export const adminRoutes = [
  route({ method: 'GET', path: '/admin/users', call: (c) => c.admin.users.list() }),
  route({ method: 'DELETE', path: '/admin/users/:id', call: (c, r) => c.admin.users.delete({ id: r.params.id }) }),
  route({ method: 'PATCH', path: '/admin/users/:id/role', body: true, call: (c, r) => c.admin.users.setRole({ ...r.body, id: r.params.id }) }),

  route({ method: 'GET', path: '/admin/users/:id/folders', call: (c, r) => c.admin.folders.list({ userId: r.params.id }) }),
  route({
    method: 'POST',
    path: '/admin/users/:id/folders',
    status: 201,
    body: true,
    call: (c, r) => c.admin.folders.create({ ...r.body, userId: r.params.id }),
  }),
  route({
    method: 'PATCH',
    path: '/admin/users/:userId/folders/:folderId',
    body: true,
    call: (c, r) => c.admin.folders.update({ ...r.body, userId: r.params.userId, folderId: r.params.folderId }),
  }),
  route({
    method: 'DELETE',
    path: '/admin/users/:userId/folders/:folderId',
    call: (c, r) => c.admin.folders.delete({ userId: r.params.userId, folderId: r.params.folderId }),
  }),
  route({ method: 'POST', path: '/admin/folders/bulk-add', body: true, call: (c, r) => c.admin.folders.bulkAdd(r.body) }),

  route({ method: 'GET', path: '/admin/messages', call: (c, r) => c.admin.messages.list(r.query) }),
  route({ method: 'GET', path: '/admin/messages/:id', call: (c, r) => c.admin.messages.byId({ id: r.params.id }) }),
  route({ method: 'PATCH', path: '/admin/messages/:id', body: true, call: (c, r) => c.admin.messages.update({ ...r.body, id: r.params.id }) }),
  route({ method: 'DELETE', path: '/admin/messages/:id', call: (c, r) => c.admin.messages.delete({ id: r.params.id }) }),

  route({ method: 'GET', path: '/admin/adverts', call: (c) => c.admin.adverts.get() }),
  route({ method: 'PUT', path: '/admin/adverts', body: true, call: (c, r) => c.admin.adverts.setSettings(r.body) }),
  route({ method: 'POST', path: '/admin/promotions', status: 201, body: true, call: (c, r) => c.admin.promotions.create(r.body) }),
  route({ method: 'PATCH', path: '/admin/promotions/:id', body: true, call: (c, r) => c.admin.promotions.update({ ...r.body, id: r.params.id }) }),
  route({ method: 'DELETE', path: '/admin/promotions/:id', call: (c, r) => c.admin.promotions.delete({ id: r.params.id }) }),
  route({ method: 'GET', path: '/admin/activity', call: (c, r) => c.admin.activity(r.query) }),
  route({ method: 'GET', path: '/admin/audit', call: (c, r) => c.admin.audit(r.query) }),
]
