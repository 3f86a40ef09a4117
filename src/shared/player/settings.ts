// The listener's playback settings, kept per browser: ReplayGain mode and
// crossfade length. One check for what the settings panel sets and what storage gives back (a
// stored value out of range or from an older version falls back to its default). Plain code, not
// a zod schema: nothing here reaches the server, and zod in the player's eager chunk costs 25 KiB
// of the / budget (decision 033).

export const REPLAY_GAIN_MODES = ['off', 'track', 'album'] as const
export type ReplayGainMode = (typeof REPLAY_GAIN_MODES)[number]
export const MAX_CROSSFADE_SECONDS = 12

export type PlayerSettings = {
  /** Track by default: tagged tracks play at their own loudness (decision 033). */
  replayGain: ReplayGainMode
  /** Whole seconds the next track overlaps the end of the current one; 0 is the gapless switch. */
  crossfade: number
}

export const DEFAULT_PLAYER_SETTINGS: PlayerSettings = { replayGain: 'track', crossfade: 0 }

/** Settings from anything (stored JSON, a panel change): every field valid, defaults for the rest. */
export function playerSettingsFrom(input: unknown): PlayerSettings {
  const o = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>
  const mode = REPLAY_GAIN_MODES.find((m) => m === o.replayGain)
  const fade = o.crossfade
  const fadeOk = typeof fade === 'number' && Number.isInteger(fade) && fade >= 0 && fade <= MAX_CROSSFADE_SECONDS
  return { replayGain: mode ?? DEFAULT_PLAYER_SETTINGS.replayGain, crossfade: fadeOk ? fade : DEFAULT_PLAYER_SETTINGS.crossfade }
}
