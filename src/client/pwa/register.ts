// Started once the page has hydrated (__root.tsx): registers the service worker (production builds
// only: the dev server has no /sw.js) and keeps the downloads with their owner: on every sign-in
// and sign-out, downloads that are not the signed-in member's are deleted. Kept small: it is part of
// every page's first load (the downloads code itself loads only with the screens that use it).
import { authStore } from '~/client/features/auth/auth-store'

export const SERVICE_WORKER_URL = '/sw.js'

export function startOfflineSupport() {
  if (import.meta.env.PROD && 'serviceWorker' in navigator) {
    // A browser that refuses (plain http away from localhost, private modes) simply stays online-only.
    navigator.serviceWorker.register(SERVICE_WORKER_URL).catch(() => {})
  }
  let member = authStore.get().user?.id ?? null
  const check = () => void import('~/client/features/offline/downloads').then((m) => m.pageDownloads().checkOwner())
  check()
  authStore.subscribe(() => {
    const now = authStore.get().user?.id ?? null
    if (now !== member) check()
    member = now
  })
}
