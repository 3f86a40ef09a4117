// The listener's playback settings (ReplayGain mode, crossfade), kept in this browser's
// localStorage and read by the player store at each volume change and track end.
import { useSyncExternalStore } from 'react'
import { DEFAULT_PLAYER_SETTINGS, type PlayerSettings, playerSettingsFrom } from '~/shared/player/settings'

const KEY = 'vibes:player:settings'

function createSettings() {
  let current: PlayerSettings | null = null
  const listeners = new Set<() => void>()

  function read(): PlayerSettings {
    if (current) return current
    try {
      current = playerSettingsFrom(JSON.parse(localStorage.getItem(KEY) ?? '{}'))
    } catch {
      current = DEFAULT_PLAYER_SETTINGS // storage forbidden or unreadable
    }
    return current
  }

  return {
    get: read,
    /** A change from the settings panel, checked by the shared schema (an invalid field keeps its default). */
    set(change: Record<string, unknown>) {
      current = playerSettingsFrom({ ...read(), ...change })
      try {
        localStorage.setItem(KEY, JSON.stringify(current))
      } catch {
        // Storage forbidden: the setting holds for this page only.
      }
      for (const l of listeners) l()
    },
    subscribe(l: () => void) {
      listeners.add(l)
      return () => void listeners.delete(l)
    },
  }
}

export const playerSettings = createSettings()

export function usePlayerSettings(): PlayerSettings {
  return useSyncExternalStore(playerSettings.subscribe, playerSettings.get, () => DEFAULT_PLAYER_SETTINGS)
}
