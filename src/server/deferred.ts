// A module loaded once, on first use, that the request path can also use at once when it has
// loaded: how the server defers the parts start-up does not need (the app router, OpenSubsonic,
// the page bundle) until after it listens (decisions 035 and 040; start-up.ts says which and when).
// A helper with no imports and no state of its own: each caller holds its own handle.

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
