// Parts of the server's module graph that start-up does not need load right after it listens
// (decisions 035 and 040): the app router (every tRPC procedure with its zod
// schemas, the admin console's among them: a third of a restart's CPU before listening) and the
// OpenSubsonic API. Health, the folder list's fast path, media and the client files answer
// without them; a request that needs one meanwhile waits for it. A module that cannot load
// rejects where the server awaits it after listening, and the process exits 1, as for the pages.

import { shareAppRouter } from './trpc/shared-router'

export type Deferred<T> = {
  /** Imports the module once; every caller shares the same promise. */
  load: () => Promise<T>
  /** The module once loaded (the request path's way in, without an await), else undefined. */
  now: () => T | undefined
}

export function deferred<T>(importModule: () => Promise<T>): Deferred<T> {
  let loading: Promise<T> | undefined
  let loaded: T | undefined
  return {
    load: () => {
      loading ??= importModule().then((module) => {
        loaded = module
        return module
      })
      return loading
    },
    now: () => loaded,
  }
}

/** `use(module)` at once when it is loaded (no promise on the request path), else once it is. */
export function withModule<T, R>(module: Deferred<T>, use: (loaded: T) => R | Promise<R>): R | Promise<R> {
  const loaded = module.now()
  return loaded !== undefined ? use(loaded) : module.load().then(use)
}

export const appRouterModule = deferred(() => import('./trpc/root'))

/** Called by the start-up (start-up.ts): the page bundle's SSR calls this router rather than a copy
 *  of its own (trpc/shared-router.ts). */
export function shareAppRouterWithPages() {
  shareAppRouter(async () => {
    const [{ appRouter }, { createContext }] = await Promise.all([appRouterModule.load(), import('./trpc/context')])
    return { appRouter, createContext }
  })
}

export const subsonicModule = deferred(() => import('./subsonic/handler'))

/** How long after listening the deferred modules start loading: long enough for the requests
 *  that were waiting for the server (a supervisor's health check, a client retrying) to be
 *  answered first, since loading them holds the event loop for ~15 ms. A request that needs one
 *  of them meanwhile loads it at once. */
const LOAD_AFTER_LISTEN_MS = 50

/** Once listening: the deferred modules, in the order requests are likeliest to need them. */
export async function loadDeferredModules() {
  await Bun.sleep(LOAD_AFTER_LISTEN_MS)
  await appRouterModule.load()
  await subsonicModule.load()
}
