// Library REST paths: members browse and search under
// /library; admins read and start the scanner under /admin/library/scan.
import { route } from '../define'

export const libraryRoutes = [
  route({ method: 'GET', path: '/library/search', call: (c, r) => c.library.search(r.query) }),
  route({ method: 'GET', path: '/library/albums', call: (c, r) => c.library.albums.list(r.query) }),
  route({ method: 'GET', path: '/library/albums/:id', call: (c, r) => c.library.albums.byId({ id: r.params.id }) }),
  route({ method: 'GET', path: '/library/artists', call: (c, r) => c.library.artists.list(r.query) }),
  route({ method: 'GET', path: '/library/artists/:id', call: (c, r) => c.library.artists.byId({ id: r.params.id }) }),
  route({ method: 'GET', path: '/library/genres', call: (c) => c.library.genres.list() }),
  route({ method: 'GET', path: '/library/songs', call: (c, r) => c.library.tracks.list(r.query) }),
  route({ method: 'GET', path: '/library/liked', call: (c) => c.library.liked() }),
  route({ method: 'GET', path: '/library/lyrics', call: (c, r) => c.library.lyrics(r.query) }),
  route({ method: 'GET', path: '/library/ratings', call: (c) => c.library.ratings.list() }),
  route({ method: 'PUT', path: '/library/ratings', body: true, call: (c, r) => c.library.ratings.set(r.body) }),
  route({ method: 'GET', path: '/library/bookmarks', call: (c, r) => c.library.bookmarks.get(r.query) }),
  route({ method: 'PUT', path: '/library/bookmarks', body: true, call: (c, r) => c.library.bookmarks.save(r.body) }),
  route({ method: 'DELETE', path: '/library/bookmarks', call: (c, r) => c.library.bookmarks.remove(r.query) }),
  route({ method: 'GET', path: '/library/folders', call: (c, r) => c.library.folder(r.query) }),
  route({ method: 'GET', path: '/admin/library/scan', call: (c) => c.library.scan.status() }),
  // The body is optional: `{ full: true }` re-reads every file.
  route({ method: 'POST', path: '/admin/library/scan', status: 202, call: (c, r) => c.library.scan.start(r.body ?? undefined) }),
]
