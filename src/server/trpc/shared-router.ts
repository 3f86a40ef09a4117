// SSR's in-process tRPC link (src/client/trpc.ts) calls the server's own app router and context
// instead of importing them: the page bundle is built by Vite apart from the server, so an import
// there gave it a second copy of the router, its zod schemas and the services (~250 KB of code
// evaluated and JIT-compiled twice in one process, decision 043). The server registers its copy
// here on globalThis, the one registry the server keeps: the page bundle is a separate build that
// imports no server module, so a module-level value would not reach it (decision 060). A page
// bundle running without our server (`bun run dev`) finds nothing registered and imports its own.
import type { createContext } from './context'
import type { AppRouter } from './root'

export type SharedRouter = { appRouter: AppRouter; createContext: typeof createContext }

const shared = globalThis as typeof globalThis & { __vibesSharedRouter?: () => Promise<SharedRouter> }

/** Called by the start-up (start-up.ts): how the page bundle gets the router once it has loaded. */
export function shareAppRouter(load: () => Promise<SharedRouter>) {
  shared.__vibesSharedRouter = load
}

/** The server's app router and context, or undefined when no server of ours registered them. */
export function sharedAppRouter(): (() => Promise<SharedRouter>) | undefined {
  return shared.__vibesSharedRouter
}
