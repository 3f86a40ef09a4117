/// <reference types="vite/client" />
// The document shell: top bar, page, footer, toasts, the rate-limit banner. The session cookie's
// user is read during SSR so the first paint already shows the right navigation.
import type { QueryClient } from '@tanstack/react-query'
import { createRootRouteWithContext, HeadContent, Outlet, Scripts } from '@tanstack/react-router'
import type { TRPCOptionsProxy } from '@trpc/tanstack-react-query'
import { useEffect, type ReactNode } from 'react'
import { css } from 'styled-system/css'
import { authStore } from '~/client/features/auth/auth-store'
import { Footer } from '~/client/features/layout/footer'
import { PlayerHost } from '~/client/features/player/player-host'
import { RateLimitBanner } from '~/client/features/layout/rate-limit-banner'
import { TopBar } from '~/client/features/layout/top-bar'
import { startOfflineSupport } from '~/client/pwa/register'
import { AppToaster } from '~/client/ui/toaster'
import type { AppRouter } from '~/server/trpc/root'
import appCss from '~/styles.css?url'

export const Route = createRootRouteWithContext<{ queryClient: QueryClient; trpc: TRPCOptionsProxy<AppRouter> }>()({
  head: () => ({
    meta: [
      { charSet: 'utf-8' },
      { name: 'viewport', content: 'width=device-width, initial-scale=1' },
      { name: 'theme-color', content: '#0b0b12' },
      { name: 'description', content: 'Vibes — Feel the Vibes. Your premium music destination.' },
      { title: 'Vibes — Feel the Vibes' },
    ],
    links: [
      { rel: 'stylesheet', href: appCss },
      { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
      { rel: 'manifest', href: '/manifest.webmanifest' },
      { rel: 'apple-touch-icon', href: '/icons/icon-192.png' },
    ],
  }),
  beforeLoad: async ({ context }) => {
    const status = await context.queryClient.ensureQueryData(context.trpc.auth.status.queryOptions())
    return { sessionUser: status.user }
  },
  component: RootComponent,
})

function RootComponent() {
  const { sessionUser } = Route.useRouteContext()
  authStore.seed(sessionUser)
  // biome-ignore lint/correctness/useExhaustiveDependencies: hydrate once with the SSR user; later changes come through authStore
  useEffect(() => {
    authStore.hydrate(sessionUser)
    startOfflineSupport()
    // Browser tests wait for this before they interact.
    ;(window as unknown as { __vibesHydrated?: boolean }).__vibesHydrated = true
  }, [])
  return (
    <RootDocument>
      <a href="#main" className={css({ position: 'absolute', left: '-9999px', _focus: { left: '4', top: '4', zIndex: 100, bg: 'bg.surface', p: '2' } })}>
        Skip to content
      </a>
      <RateLimitBanner />
      <TopBar />
      <main id="main" className={css({ flex: '1', w: 'full', maxW: '7xl', mx: 'auto', px: { base: '4', md: '6' }, py: { base: '6', md: '8' } })}>
        <Outlet />
      </main>
      <Footer />
      {/* The one player: above the routes, so changing page never stops the music. */}
      <PlayerHost />
      <AppToaster />
    </RootDocument>
  )
}

function RootDocument({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <HeadContent />
      </head>
      <body className={css({ minH: '100vh', display: 'flex', flexDirection: 'column' })}>
        {children}
        <Scripts />
      </body>
    </html>
  )
}
