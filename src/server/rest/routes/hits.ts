import { route, type RestRequest } from '../define'

// A GET that records a hit: the footer counter's call. Query-string input goes to the same validator;
// a repeated `page` is handed over as an array so the validator refuses it instead of one winning.
// A GET should be safe to repeat, so the requests a browser makes without a visit behind them —
// HEAD, and speculative prefetches (`Sec-Purpose: prefetch`, older `Purpose: prefetch`) — get the
// counts without adding a hit.
function isPrefetch(request: Request): boolean {
  if (request.method === 'HEAD') return true
  const purpose = `${request.headers.get('sec-purpose') ?? ''} ${request.headers.get('purpose') ?? ''} ${request.headers.get('x-moz') ?? ''}`
  return /\bprefetch\b/i.test(purpose)
}

function pageParam(r: RestRequest): unknown {
  const all = new URL(r.request.url).searchParams.getAll('page')
  return all.length > 1 ? all : all[0]
}

export const hitsRoutes = [
  route({
    method: 'GET',
    path: '/hits/page-hits',
    call: (c, r) => (isPrefetch(r.request) ? c.hits.counts({ page: pageParam(r) }) : c.hits.record({ page: pageParam(r) })),
  }),
]
