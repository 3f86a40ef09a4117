import { route } from '../define'

// A member's scrobbling connections (docs/rest-api.md "Scrobbling").
export const scrobblingRoutes = [
  route({ method: 'GET', path: '/user/scrobbling', call: (c) => c.scrobbling.status() }),
  route({ method: 'POST', path: '/user/scrobbling/listenbrainz', body: true, call: (c, r) => c.scrobbling.connectListenBrainz(r.body) }),
  route({ method: 'POST', path: '/user/scrobbling/lastfm/start', call: (c) => c.scrobbling.lastfmStart() }),
  route({ method: 'POST', path: '/user/scrobbling/lastfm', body: true, call: (c, r) => c.scrobbling.lastfmComplete(r.body) }),
  route({ method: 'DELETE', path: '/user/scrobbling/:service', call: (c, r) => c.scrobbling.disconnect({ service: r.params.service }) }),
]
