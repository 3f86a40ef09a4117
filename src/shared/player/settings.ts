// The listener's playback settings (issue 10 item 6), kept per browser: ReplayGain mode and
// crossfade length. One schema for what the settings panel sends and what storage gives back
// (a stored value out of range or from an older version falls back to the default).
import { z } from 'zod'

export const REPLAY_GAIN_MODES = ['off', 'track', 'album'] as const
export type ReplayGainMode = (typeof REPLAY_GAIN_MODES)[number]
export const MAX_CROSSFADE_SECONDS = 12

export const PlayerSettingsSchema = z.object({
  /** Track by default: tagged tracks play at their own loudness (decision 033). */
  replayGain: z.enum(REPLAY_GAIN_MODES).catch('track'),
  /** Seconds the next track overlaps the end of the current one; 0 is the gapless switch. */
  crossfade: z.number().int().min(0).max(MAX_CROSSFADE_SECONDS).catch(0),
})
export type PlayerSettings = z.infer<typeof PlayerSettingsSchema>

export const DEFAULT_PLAYER_SETTINGS: PlayerSettings = { replayGain: 'track', crossfade: 0 }

/** Settings from anything (stored JSON, a form): every field valid, defaults for the rest. */
export const playerSettingsFrom = (input: unknown): PlayerSettings => PlayerSettingsSchema.parse(input && typeof input === 'object' ? input : {})
