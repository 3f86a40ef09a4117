// Keyboard shortcuts, on every page while something is loaded: space play/pause,
// ←/→ ∓10 s, ↑/↓ volume, M mute, N/P next and previous, S shuffle, R repeat, and ? for the list of
// them (the shortcuts dialog reads the same table, so it cannot drift from what the keys do).
// Ignored while typing, with modifiers, inside dialogs, or where the focused control already uses
// the key (buttons for space, sliders, tabs and radio groups for arrows).
import { useEffect, useRef } from 'react'
import { SEEK_STEP } from './player-store'

type Actions = {
  togglePlay: () => void
  next: () => void
  previous: () => void
  seekBy: (d: number) => void
  toggleMute: () => void
  toggleShuffle: () => void
  toggleRepeat: () => void
  /** Up or down by a step; a step up while muted unmutes (the engine's stepVolume). */
  stepVolume: (by: number) => void
  showHelp: () => void
}

const VOLUME_STEP = 0.05

type Shortcut = {
  /** KeyboardEvent.key values that trigger it. */
  keys: string[]
  /** How the key is written in the shortcuts dialog. */
  label: string
  action: string
  run: (a: Actions) => void
  /** Arrow keys give way to controls that move with them. */
  arrow?: boolean
}

export const PLAYER_SHORTCUTS: readonly Shortcut[] = [
  { keys: [' '], label: 'Space', action: 'Play or pause', run: (a) => a.togglePlay() },
  { keys: ['ArrowLeft'], label: '←', action: `Back ${SEEK_STEP} seconds`, run: (a) => a.seekBy(-SEEK_STEP), arrow: true },
  { keys: ['ArrowRight'], label: '→', action: `Forward ${SEEK_STEP} seconds`, run: (a) => a.seekBy(SEEK_STEP), arrow: true },
  { keys: ['ArrowUp'], label: '↑', action: 'Volume up', run: (a) => a.stepVolume(VOLUME_STEP), arrow: true },
  { keys: ['ArrowDown'], label: '↓', action: 'Volume down', run: (a) => a.stepVolume(-VOLUME_STEP), arrow: true },
  { keys: ['m', 'M'], label: 'M', action: 'Mute or unmute', run: (a) => a.toggleMute() },
  { keys: ['n', 'N'], label: 'N', action: 'Next track', run: (a) => a.next() },
  { keys: ['p', 'P'], label: 'P', action: 'Previous track', run: (a) => a.previous() },
  { keys: ['s', 'S'], label: 'S', action: 'Shuffle on or off', run: (a) => a.toggleShuffle() },
  { keys: ['r', 'R'], label: 'R', action: 'Repeat mode (all, this track, off)', run: (a) => a.toggleRepeat() },
  { keys: ['?'], label: '?', action: 'Show this list', run: (a) => a.showHelp() },
]

const TYPING = 'input, textarea, select, [contenteditable=""], [contenteditable="true"]'
const OWNS_ARROWS = '[role=slider], [role=tab], [role=tablist], [role=menu], [role=listbox], [role=radiogroup], input[type=range]'
const OWNS_SPACE = 'button, a, [role=button], [role=tab], [role=checkbox], [role=switch], summary'

/** `playable`: the player has tracks and no advert is up (`?` answers either way). */
export function usePlayerKeys(playable: boolean, actions: Actions) {
  const ref = useRef({ playable, actions })
  ref.current = { playable, actions }
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return
      const target = e.target instanceof Element ? e.target : null
      if (target?.closest(TYPING) && !target.closest('input[type=range]')) return
      if (target?.closest('[role=dialog]')) return
      const shortcut = PLAYER_SHORTCUTS.find((s) => s.keys.includes(e.key))
      if (!shortcut) return
      if (e.key === ' ' && target?.closest(OWNS_SPACE)) return
      if (shortcut.arrow && target?.closest(OWNS_ARROWS)) return
      if (e.key !== '?' && !ref.current.playable) return
      shortcut.run(ref.current.actions)
      e.preventDefault()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])
}
