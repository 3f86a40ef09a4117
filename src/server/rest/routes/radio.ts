import { route } from '../define'

// Internet radio (docs/rest-api.md "Internet radio"); the stream itself is GET /api/radio/stream/:id.
export const radioRoutes = [
  route({ method: 'GET', path: '/radio/stations', call: (c) => c.radio.list() }),
  route({ method: 'GET', path: '/radio/stations/:id/now-playing', call: (c, r) => c.radio.nowPlaying({ id: r.params.id }) }),
  route({ method: 'PUT', path: '/radio/stations/:id/favourite', body: true, call: (c, r) => c.radio.favourite({ ...r.body, id: r.params.id }) }),
  route({ method: 'POST', path: '/admin/radio/stations', status: 201, body: true, call: (c, r) => c.radio.create(r.body) }),
  route({ method: 'PUT', path: '/admin/radio/stations/:id', body: true, call: (c, r) => c.radio.update({ ...r.body, id: r.params.id }) }),
  route({ method: 'DELETE', path: '/admin/radio/stations/:id', call: (c, r) => c.radio.delete({ id: r.params.id }) }),
]
