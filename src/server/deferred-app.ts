// The built TanStack Start app (React, the router and every route: the largest module graph the
// server has) loads after the server listens (issue 12 item 3, decision 035): the API, media and
// health answer while it loads, and a page asked for meanwhile waits for it instead of failing.
import type { StartApp } from './serve'

/** A StartApp that imports the real one on the first page or on ready(), whichever comes first. */
export function deferredApp(load: () => Promise<{ default: StartApp }>) {
  let loaded: Promise<StartApp> | undefined
  const ready = () => {
    loaded ??= load().then((module) => module.default)
    return loaded
  }
  const app: StartApp = { fetch: async (request) => (await ready()).fetch(request) }
  return { app, ready }
}
