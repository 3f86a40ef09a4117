// Whether the full player's playlist panel is open. The player bar holds the "Show playlist"
// button and the full player shows the panel, so the state sits between them.
import { useSyncExternalStore } from 'react'

let shown = false
const listeners = new Set<() => void>()

export const playlistPanel = {
  subscribe(l: () => void) {
    listeners.add(l)
    return () => void listeners.delete(l)
  },
  get: () => shown,
  set(next: boolean) {
    if (next === shown) return
    shown = next
    for (const l of listeners) l()
  },
}

export const usePlaylistPanel = () => useSyncExternalStore(playlistPanel.subscribe, playlistPanel.get, () => false)
