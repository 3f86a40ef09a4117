import { route } from '../define'

// A member's podcasts (docs/rest-api.md "Podcasts"); the audio itself is GET /api/podcasts/episodes/{id}/audio.
export const podcastRoutes = [
  route({ method: 'GET', path: '/podcasts', call: (c) => c.podcasts.list() }),
  route({ method: 'POST', path: '/podcasts', status: 201, body: true, call: (c, r) => c.podcasts.subscribe(r.body) }),
  route({ method: 'POST', path: '/podcasts/refresh', call: (c) => c.podcasts.refresh() }),
  route({ method: 'GET', path: '/podcasts/settings', call: (c) => c.podcasts.settings() }),
  route({ method: 'PUT', path: '/podcasts/settings', body: true, call: (c, r) => c.podcasts.setSettings(r.body) }),
  route({ method: 'GET', path: '/podcasts/:channelId', call: (c, r) => c.podcasts.channel({ channelId: r.params.channelId }) }),
  route({ method: 'DELETE', path: '/podcasts/:channelId', call: (c, r) => c.podcasts.unsubscribe({ channelId: r.params.channelId }) }),
  route({ method: 'POST', path: '/podcasts/:channelId/refresh', call: (c, r) => c.podcasts.refresh({ channelId: r.params.channelId }) }),
  route({ method: 'POST', path: '/podcasts/:channelId/visit', call: (c, r) => c.podcasts.visit({ channelId: r.params.channelId }) }),
  route({
    method: 'GET',
    path: '/podcasts/:channelId/episodes',
    call: (c, r) => c.podcasts.episodes({ channelId: r.params.channelId, search: r.query.search, cursor: r.query.offset, limit: r.query.limit }),
  }),
  route({ method: 'GET', path: '/podcasts/episodes/:episodeId', call: (c, r) => c.podcasts.episode({ episodeId: r.params.episodeId }) }),
  route({
    method: 'PUT',
    path: '/podcasts/episodes/:episodeId/progress',
    body: true,
    call: (c, r) => c.podcasts.progress({ ...r.body, episodeId: r.params.episodeId }),
  }),
  route({ method: 'POST', path: '/podcasts/episodes/:episodeId/download', call: (c, r) => c.podcasts.download({ episodeId: r.params.episodeId }) }),
  route({ method: 'DELETE', path: '/podcasts/episodes/:episodeId/download', call: (c, r) => c.podcasts.deleteDownload({ episodeId: r.params.episodeId }) }),
]
