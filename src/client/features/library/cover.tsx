// An album or artist picture: the signed cover URL, else a gradient tile with the name's initial.
import { css, cx } from 'styled-system/css'

const tile = { w: 'full', aspectRatio: 'square', borderRadius: 'lg', bg: 'bg.subtle' } as const
const image = css(tile, { objectFit: 'cover', display: 'block' })
const placeholder = css(tile, {
  display: 'grid',
  placeItems: 'center',
  // The initial scales with the tile (a 36 px search result or a 240 px album page).
  containerType: 'inline-size',
  fontWeight: 'bold',
  color: 'fg.muted',
  bgGradient: 'to-br',
  gradientFrom: 'bg.subtle',
  gradientTo: 'accent.default/30',
  _before: { content: 'attr(data-initial)', fontSize: '40cqw', lineHeight: '1' },
})
const rounded = css({ borderRadius: 'full' })

export function Cover({ src, name, round, className }: { src?: string; name: string; round?: boolean; className?: string }) {
  if (src) return <img src={src} alt="" loading="lazy" decoding="async" className={cx(image, round && rounded, className)} />
  return <span aria-hidden data-initial={name.trim().charAt(0).toUpperCase() || '♪'} className={cx(placeholder, round && rounded, className)} />
}
