// REST paths for listening events, likes, the saved play queue and promotions (docs/rest-api.md).
import { route } from '../define'

export const playlistRoutes = [
  route({ method: 'POST', path: '/playlist/plays', status: 201, body: true, call: (c, r) => c.playlist.plays.create(r.body) }),
  route({
    method: 'PUT',
    path: '/playlist/plays/:id',
    body: true,
    call: (c, r) => c.playlist.plays.update({ ...r.body, playEventId: r.params.id }),
  }),
  route({ method: 'POST', path: '/playlist/interactions', status: 201, body: true, call: (c, r) => c.playlist.interactions.create(r.body) }),
  route({ method: 'GET', path: '/playlist/likes', noTokenMessage: 'Authentication required', call: (c) => c.playlist.likes.list() }),
  route({ method: 'PUT', path: '/playlist/likes', body: true, call: (c, r) => c.playlist.likes.set(r.body) }),
  route({ method: 'GET', path: '/playlist/queue', call: (c) => c.playlist.queue.get() }),
  route({ method: 'PUT', path: '/playlist/queue', body: true, call: (c, r) => c.playlist.queue.save(r.body) }),
  route({ method: 'GET', path: '/promotions', call: (c) => c.playlist.promotions.list() }),
]
