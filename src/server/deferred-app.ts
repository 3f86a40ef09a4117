// The built TanStack Start app (React, the router and every route: the largest module graph the
// server has) loads after the server listens (decision 035): the API, media and
// health answer while it loads, and a page asked for meanwhile waits for it instead of failing.
// It is one more deferred module (deferred.ts), loaded on the first page or on ready().
import { deferred, withModule } from './deferred'
import type { StartApp } from './serve'

export function deferredApp(load: () => Promise<{ default: StartApp }>) {
  const bundle = deferred(load)
  const app: StartApp = { fetch: (request) => withModule(bundle, ({ default: start }) => start.fetch(request)) }
  return { app, ready: bundle.load }
}
