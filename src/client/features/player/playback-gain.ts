// The factors the player multiplies into a media element's volume (decision 033).
// ReplayGain: the gain a track's tags ask for,
// made clipping-safe (never above 1/peak), and capped at 1: the player multiplies it into the
// media element's volume, which cannot go above 1, so loud tracks are turned down and quiet ones
// are left as they are (the element volume also applies where the element plays into the shared
// AudioContext, decision 051; no gain nodes of our own: see decision 033 for why).
import type { ReplayGainMode } from '~/shared/player/settings'
import type { ReplayGain } from '~/shared/player/track'

/** Gain and peak for the mode; album mode falls back to the track's values when the album has none. */
function pick(rg: ReplayGain, mode: Exclude<ReplayGainMode, 'off'>): { gain?: number; peak?: number } {
  const album = { gain: rg.albumGain, peak: rg.albumPeak }
  const track = { gain: rg.trackGain, peak: rg.trackPeak }
  if (mode === 'album') return album.gain !== undefined ? album : track
  return track.gain !== undefined ? track : album
}

/** The volume factor (0–1) for a track: min(10^(gain/20), 1/peak, 1); 1 without tags or when off. */
export function replayGainFactor(rg: ReplayGain | undefined, mode: ReplayGainMode): number {
  if (!rg || mode === 'off') return 1
  const { gain, peak } = pick(rg, mode)
  if (gain === undefined || !Number.isFinite(gain)) return 1
  const wanted = 10 ** (gain / 20)
  const safe = peak !== undefined && peak > 0 ? Math.min(wanted, 1 / peak) : wanted
  return Math.min(1, safe)
}

/** Equal-power crossfade gains at progress p (0–1): the outgoing track's and the incoming one's. */
export function crossfadeGains(p: number): { out: number; in: number } {
  const x = Math.min(1, Math.max(0, p)) * (Math.PI / 2)
  return { out: Math.cos(x), in: Math.sin(x) }
}
