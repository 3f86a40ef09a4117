import { describe, expect, test } from 'bun:test'
import { crossfadeGains, replayGainFactor } from '~/client/features/player/playback-gain'
import { DEFAULT_PLAYER_SETTINGS, playerSettingsFrom } from '~/shared/player/settings'

const db = (factor: number) => 20 * Math.log10(factor)

describe('ReplayGain as a volume factor', () => {
  const rg = { trackGain: -6, trackPeak: 0.5, albumGain: -9, albumPeak: 0.9 }

  test('track and album modes use their own gain: 10^(gain/20)', () => {
    expect(replayGainFactor(rg, 'track')).toBeCloseTo(10 ** (-6 / 20), 6)
    expect(replayGainFactor(rg, 'album')).toBeCloseTo(10 ** (-9 / 20), 6)
  })

  test('off, or no tags, leaves the volume alone', () => {
    expect(replayGainFactor(rg, 'off')).toBe(1)
    expect(replayGainFactor(undefined, 'track')).toBe(1)
    expect(replayGainFactor({}, 'album')).toBe(1)
    expect(replayGainFactor({ trackPeak: 0.5 }, 'track')).toBe(1)
  })

  test('clipping-safe: never above 1/peak', () => {
    // −1 dB asked for, but the peak of 0.95 allows only 1/0.95 ≈ +0.45 dB: −1 dB stands.
    expect(replayGainFactor({ trackGain: -1, trackPeak: 0.95 }, 'track')).toBeCloseTo(10 ** (-1 / 20), 6)
    // A peak above full scale (1.25) caps a −1 dB gain at 1/1.25 = 0.8 (−1.94 dB).
    expect(replayGainFactor({ trackGain: -1, trackPeak: 1.25 }, 'track')).toBeCloseTo(0.8, 6)
    expect(db(replayGainFactor({ trackGain: -1, trackPeak: 1.25 }, 'track'))).toBeLessThan(-1.9)
  })

  test('a gain above 0 dB cannot raise the element volume beyond 1 (attenuate only)', () => {
    expect(replayGainFactor({ trackGain: 6, trackPeak: 0.3 }, 'track')).toBe(1)
    expect(replayGainFactor({ trackGain: 6 }, 'track')).toBe(1)
  })

  test('album mode falls back to the track gain when the album has none, and back', () => {
    expect(replayGainFactor({ trackGain: -6, trackPeak: 0.5 }, 'album')).toBeCloseTo(10 ** (-6 / 20), 6)
    expect(replayGainFactor({ albumGain: -3, albumPeak: 0.5 }, 'track')).toBeCloseTo(10 ** (-3 / 20), 6)
  })
})

describe('equal-power crossfade', () => {
  test('starts all out, ends all in, and keeps the summed power at 1 on the way', () => {
    expect(crossfadeGains(0)).toEqual({ out: 1, in: 0 })
    const end = crossfadeGains(1)
    expect(end.out).toBeCloseTo(0, 9)
    expect(end.in).toBeCloseTo(1, 9)
    for (const p of [0.1, 0.25, 0.5, 0.75, 0.9]) {
      const g = crossfadeGains(p)
      expect(g.out ** 2 + g.in ** 2).toBeCloseTo(1, 9)
    }
    expect(crossfadeGains(0.5).out).toBeCloseTo(Math.SQRT1_2, 9)
    expect(crossfadeGains(-1)).toEqual(crossfadeGains(0))
    expect(crossfadeGains(2)).toEqual(crossfadeGains(1))
  })
})

describe('playback settings', () => {
  test('default: ReplayGain by track, no crossfade', () => {
    expect(playerSettingsFrom(null)).toEqual(DEFAULT_PLAYER_SETTINGS)
    expect(DEFAULT_PLAYER_SETTINGS).toEqual({ replayGain: 'track', crossfade: 0 })
  })

  test('stored values out of range fall back field by field', () => {
    expect(playerSettingsFrom({ replayGain: 'album', crossfade: 4 })).toEqual({ replayGain: 'album', crossfade: 4 })
    expect(playerSettingsFrom({ replayGain: 'loud', crossfade: 4 })).toEqual({ replayGain: 'track', crossfade: 4 })
    expect(playerSettingsFrom({ replayGain: 'off', crossfade: 13 })).toEqual({ replayGain: 'off', crossfade: 0 })
    expect(playerSettingsFrom({ crossfade: 2.5 })).toEqual({ replayGain: 'track', crossfade: 0 })
  })
})
