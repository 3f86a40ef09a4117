// Keyboard shortcuts beyond the spec: space play/pause, ←/→ ∓10 s, ↑/↓ volume, M mute, N/P next and
// previous, S shuffle, R repeat. Ignored while typing, with modifiers, or where the focused
// control already uses the key (buttons for space, sliders and tabs for arrows).
import { useEffect, useRef } from 'react'

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
}

const VOLUME_STEP = 0.05
const TYPING = 'input, textarea, select, [contenteditable=""], [contenteditable="true"]'
const OWNS_ARROWS = '[role=slider], [role=tab], [role=tablist], [role=menu], [role=listbox], input[type=range]'
const OWNS_SPACE = 'button, a, [role=button], [role=tab], [role=checkbox], [role=switch], summary'

export function usePlayerKeys(enabled: boolean, actions: Actions) {
  const ref = useRef(actions)
  ref.current = actions
  useEffect(() => {
    if (!enabled) return
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return
      const target = e.target instanceof Element ? e.target : null
      if (target?.closest(TYPING) && !target.closest('input[type=range]')) return
      if (target?.closest('[role=dialog]')) return
      const a = ref.current
      const arrowsOwned = !!target?.closest(OWNS_ARROWS)
      switch (e.key) {
        case ' ':
          if (target?.closest(OWNS_SPACE)) return
          a.togglePlay()
          break
        case 'ArrowLeft':
          if (arrowsOwned) return
          a.seekBy(-10)
          break
        case 'ArrowRight':
          if (arrowsOwned) return
          a.seekBy(10)
          break
        case 'ArrowUp':
          if (arrowsOwned) return
          a.stepVolume(VOLUME_STEP)
          break
        case 'ArrowDown':
          if (arrowsOwned) return
          a.stepVolume(-VOLUME_STEP)
          break
        case 'm':
        case 'M':
          a.toggleMute()
          break
        case 'n':
        case 'N':
          a.next()
          break
        case 'p':
        case 'P':
          a.previous()
          break
        case 's':
        case 'S':
          a.toggleShuffle()
          break
        case 'r':
        case 'R':
          a.toggleRepeat()
          break
        default:
          return
      }
      e.preventDefault()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [enabled])
}
