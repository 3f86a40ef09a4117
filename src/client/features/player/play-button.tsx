// The round Play/Pause button (named "Play" or "Pause" for assistive technology): the full player's large one and the now-playing
// bar's 44 px one are the same button in two sizes, so they cannot drift apart.
import type { ButtonHTMLAttributes } from 'react'
import { cva } from 'styled-system/css'
import { Icon } from '~/client/ui/icon'

const playButton = cva({
  base: {
    display: 'grid',
    placeItems: 'center',
    borderRadius: 'full',
    bgGradient: 'to-br',
    gradientFrom: 'accent.default',
    gradientTo: 'accent.pink',
    color: 'white',
    cursor: 'pointer',
  },
  variants: {
    size: {
      full: {
        w: '14',
        h: '14',
        mx: { base: '0.5', sm: '1' },
        boxShadow: 'lg',
        _hover: { _enabled: { transform: 'scale(1.05)' } },
        _disabled: { opacity: 0.4, cursor: 'not-allowed' },
        transition: 'transform 0.15s',
      },
      bar: { w: '11', h: '11' },
    },
  },
})

type Props = { playing: boolean; size: 'full' | 'bar' } & Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type' | 'aria-label' | 'className' | 'children'>

export function PlayButton({ playing, size, ...button }: Props) {
  return (
    <button type="button" aria-label={playing ? 'Pause' : 'Play'} className={playButton({ size })} {...button}>
      <Icon name={playing ? 'pause' : 'play'} size={size === 'full' ? 24 : 20} filled />
    </button>
  )
}
