// An album or artist picture: the signed cover URL, else a gradient tile with the name's initial.
import { css, cx } from 'styled-system/css'

const tile = css({ w: 'full', aspectRatio: 'square', borderRadius: 'lg', objectFit: 'cover', bg: 'bg.subtle', display: 'block' })

export function Cover({ src, name, round, className }: { src?: string; name: string; round?: boolean; className?: string }) {
  if (src) return <img src={src} alt="" loading="lazy" decoding="async" className={cx(tile, round && css({ borderRadius: 'full' }), className)} />
  return (
    <span
      aria-hidden
      data-initial={name.trim().charAt(0).toUpperCase() || '♪'}
      className={cx(
        tile,
        css({
          display: 'grid',
          placeItems: 'center',
          fontSize: '3xl',
          fontWeight: 'bold',
          color: 'fg.muted',
          bgGradient: 'to-br',
          gradientFrom: 'bg.subtle',
          gradientTo: 'accent.default/30',
          _before: { content: 'attr(data-initial)' },
        }),
        round && css({ borderRadius: 'full' }),
        className,
      )}
    />
  )
}
