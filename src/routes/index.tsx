// Home: the player (its issue fills this page with the local and remote sources).
import { createFileRoute } from '@tanstack/react-router'
import { css } from 'styled-system/css'

export const Route = createFileRoute('/')({ component: HomePage })

function HomePage() {
  return (
    <section className={css({ textAlign: 'center', py: '16' })}>
      <h1 className={css({ fontSize: { base: '4xl', md: '6xl' }, fontWeight: 'extrabold', letterSpacing: 'tight', bgGradient: 'to-r', gradientFrom: 'accent.default', gradientTo: 'accent.pink', bgClip: 'text', color: 'transparent' })}>
        Feel the Vibes
      </h1>
      <p className={css({ color: 'fg.muted', fontSize: 'lg', mt: '3' })}>Your premium music destination</p>
    </section>
  )
}
