// The service worker, served as /sw.js (scripts/build-sw.ts bundles this file and fills in the
// build's version and asset list). Which requests it answers and how: sw-rules.ts.
//  - install: stores the app shell (the build's JS/CSS, the offline page, manifest, icons);
//  - activate: drops the shells of older builds and takes control of open pages;
//  - a page that cannot be fetched (no network) gets the offline page, or, when the member has
//    downloads here, the downloads page, which plays them; no member's page is ever stored (the
//    downloads page is stored as its anonymous render, the same for everyone);
//  - /assets/* come from the shell (they are hashed, so a stored copy is never stale);
//  - /media/* come from the member's downloads when stored there (with byte ranges, which media
//    elements ask for), else from the network;
//  - everything else, the API above all, goes to the network untouched.
import {
  answerFromBlob,
  DOWNLOADS_CACHE,
  DOWNLOADS_PAGE,
  downloadKey,
  OFFLINE_PAGE,
  offlineAnswer,
  requestKind,
  SHELL_CACHE_PREFIX,
  SHELL_EXTRAS,
} from './sw-rules'

declare const BUILD_VERSION: string
declare const BUILD_ASSETS: string[]

// The worker's own globals, typed here: the webworker lib cannot sit beside the DOM lib in one program.
type ExtendableEvent = Event & { waitUntil: (promise: Promise<unknown>) => void }
type FetchEvent = ExtendableEvent & { request: Request; respondWith: (answer: Promise<Response>) => void }
type WorkerScope = {
  location: Location
  skipWaiting: () => Promise<void>
  clients: { claim: () => Promise<void> }
  addEventListener: ((type: 'install' | 'activate', listener: (event: ExtendableEvent) => void) => void) &
    ((type: 'fetch', listener: (event: FetchEvent) => void) => void)
}
const worker = self as unknown as WorkerScope

const SHELL_CACHE = SHELL_CACHE_PREFIX + BUILD_VERSION
const origin = worker.location.origin

worker.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(SHELL_CACHE)
      await cache.addAll([...SHELL_EXTRAS, ...BUILD_ASSETS])
      // Without credentials: the page as any visitor gets it, never a member's render. Not kept
      // (offline, the offline page then) rather than no worker when the server will not give it.
      await cache.add(new Request(DOWNLOADS_PAGE, { credentials: 'omit', redirect: 'error' })).catch(() => {})
      await worker.skipWaiting()
    })(),
  )
})

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith(SHELL_CACHE_PREFIX) && name !== SHELL_CACHE) await caches.delete(name)
      await worker.clients.claim()
    })(),
  )
})

worker.addEventListener('fetch', (event) => {
  const { request } = event
  switch (requestKind(request, origin)) {
    case 'page':
      return event.respondWith(pageOrOffline(request))
    case 'asset':
      return event.respondWith(fromShell(request))
    case 'media':
      return event.respondWith(fromDownloads(request))
    case 'network':
      return
  }
})

async function pageOrOffline(request: Request): Promise<Response> {
  try {
    return await fetch(request)
  } catch {
    switch (offlineAnswer(request.url, await hasDownloads())) {
      case 'to-downloads-page':
        return Response.redirect(new URL(DOWNLOADS_PAGE, origin).href, 302)
      case 'downloads-page':
        return (await caches.match(DOWNLOADS_PAGE, { cacheName: SHELL_CACHE })) ?? offlinePage()
      case 'offline-page':
        return offlinePage()
    }
  }
}

async function offlinePage(): Promise<Response> {
  return (await caches.match(OFFLINE_PAGE, { cacheName: SHELL_CACHE })) ?? Response.error()
}

/** Whether any file is downloaded on this device (the cache goes when its member signs out). */
async function hasDownloads(): Promise<boolean> {
  if (!(await caches.has(DOWNLOADS_CACHE))) return false
  return (await (await caches.open(DOWNLOADS_CACHE)).keys()).length > 0
}

async function fromShell(request: Request): Promise<Response> {
  const stored = await caches.match(request, { cacheName: SHELL_CACHE })
  if (stored) return stored
  const answer = await fetch(request)
  // Only the hashed build files are added on the way (a chunk of another route, an image).
  if (answer.ok && new URL(request.url).pathname.startsWith('/assets/')) {
    const copy = answer.clone()
    void caches.open(SHELL_CACHE).then((cache) => cache.put(request, copy))
  }
  return answer
}

async function fromDownloads(request: Request): Promise<Response> {
  const stored = await caches.match(downloadKey(request.url, origin), { cacheName: DOWNLOADS_CACHE })
  if (!stored) return fetch(request)
  return answerFromBlob(await stored.blob(), stored.headers.get('content-type') ?? 'application/octet-stream', request.headers.get('range'))
}
