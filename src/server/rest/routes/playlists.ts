// REST paths for members' playlists (docs/rest-api.md "Playlists").
import { route } from '../define'

export const playlistsRoutes = [
  route({ method: 'GET', path: '/user/playlists', call: (c) => c.playlists.list() }),
  route({ method: 'POST', path: '/user/playlists', status: 201, body: true, call: (c, r) => c.playlists.create(r.body) }),
  route({ method: 'POST', path: '/user/playlists/import', status: 201, body: true, call: (c, r) => c.playlists.m3u8.import(r.body) }),
  route({ method: 'GET', path: '/user/playlists/:id', call: (c, r) => c.playlists.byId({ id: r.params.id }) }),
  route({ method: 'PATCH', path: '/user/playlists/:id', body: true, call: (c, r) => c.playlists.update({ ...r.body, id: r.params.id }) }),
  route({ method: 'DELETE', path: '/user/playlists/:id', call: (c, r) => c.playlists.delete({ id: r.params.id }) }),
  route({ method: 'GET', path: '/user/playlists/:id/m3u8', call: (c, r) => c.playlists.m3u8.export({ id: r.params.id }) }),
  route({ method: 'POST', path: '/user/playlists/:id/tracks', body: true, call: (c, r) => c.playlists.tracks.add({ ...r.body, id: r.params.id }) }),
  route({ method: 'PUT', path: '/user/playlists/:id/tracks', body: true, call: (c, r) => c.playlists.tracks.replace({ ...r.body, id: r.params.id }) }),
  route({ method: 'DELETE', path: '/user/playlists/:id/tracks', body: true, call: (c, r) => c.playlists.tracks.remove({ ...r.body, id: r.params.id }) }),
  route({ method: 'POST', path: '/user/playlists/:id/tracks/move', body: true, call: (c, r) => c.playlists.tracks.move({ ...r.body, id: r.params.id }) }),
]
