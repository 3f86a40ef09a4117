import { route, unchecked } from '../define'

// A GET that records a hit: the spec's footer call. Query-string input goes to the same validator.
export const hitsRoutes = [route({ method: 'GET', path: '/hits/page-hits', call: (c, r) => c.hits.record(unchecked({ page: r.query.page })) })]
