// The gradient tile that stands for a list with no cover art of its own (Liked songs, a playlist):
// small in the lists' rows, large as the list page's cover.
import { cva } from 'styled-system/css'
import { Icon, type IconName } from './icon'

const coverTile = cva({
  base: { display: 'grid', placeItems: 'center', flexShrink: 0, bgGradient: 'to-br', gradientFrom: 'accent.default', color: 'white' },
  variants: {
    size: {
      sm: { w: '12', h: '12', borderRadius: 'lg' },
      lg: { w: { base: '36', md: '48' }, h: { base: '36', md: '48' }, borderRadius: '2xl', boxShadow: 'xl' },
    },
    /** Where the gradient ends: the accent's pink, or fading into the page. */
    fadeTo: { pink: { gradientTo: 'accent.pink' }, surface: { gradientTo: 'bg.subtle' } },
  },
})

export function CoverTile({ size, icon, filled, fadeTo }: { size: 'sm' | 'lg'; icon: IconName; filled?: boolean; fadeTo: 'pink' | 'surface' }) {
  return (
    <span aria-hidden className={coverTile({ size, fadeTo })}>
      <Icon name={icon} filled={filled} size={size === 'lg' ? 64 : 22} />
    </span>
  )
}
