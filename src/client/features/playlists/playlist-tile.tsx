// The tile that stands for a playlist (the list's rows and the playlist page's cover).
import { css } from 'styled-system/css'
import { Icon } from '~/client/ui/icon'

export function PlaylistTile({ size }: { size: 'sm' | 'lg' }) {
  return (
    <span
      aria-hidden
      className={css({
        display: 'grid',
        placeItems: 'center',
        flexShrink: 0,
        w: size === 'lg' ? { base: '36', md: '48' } : '12',
        h: size === 'lg' ? { base: '36', md: '48' } : '12',
        borderRadius: size === 'lg' ? '2xl' : 'lg',
        bgGradient: 'to-br',
        gradientFrom: 'accent.default',
        gradientTo: 'bg.subtle',
        color: 'white',
        boxShadow: size === 'lg' ? 'xl' : undefined,
      })}
    >
      <Icon name="playlist" size={size === 'lg' ? 64 : 22} />
    </span>
  )
}
