import { memberFolders } from '../../services/folders'
import { requireUser } from '../../trpc/init'
import { route } from '../define'

export const folderRoutes = [
  route({ method: 'GET', path: '/user/folders', call: (c) => c.folders.list(), serve: (ctx) => memberFolders(ctx.db, requireUser(ctx).id) }),
  route({ method: 'POST', path: '/user/folders', status: 201, body: true, call: (c, r) => c.folders.create(r.body) }),
  // Before /user/folders/:id so 'reorder' is not read as an id.
  route({ method: 'PUT', path: '/user/folders/reorder', body: true, call: (c, r) => c.folders.reorder(r.body) }),
  route({ method: 'PATCH', path: '/user/folders/:id', body: true, call: (c, r) => c.folders.update({ ...r.body, id: r.params.id }) }),
  route({ method: 'DELETE', path: '/user/folders/:id', call: (c, r) => c.folders.delete({ id: r.params.id }) }),
  route({ method: 'GET', path: '/user/folders/:id/playlist', call: async (c, r) => (await c.folders.playlist({ id: r.params.id })).tracks }),
]
