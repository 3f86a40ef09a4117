import { describe, expect, test } from 'bun:test'
import {
  addTrack,
  isCompleted,
  leaveReport,
  newSession,
  newSessionId,
  nextTrackOf,
  previousTrackOf,
  SESSION_ID_PATTERN,
  sessionDuration,
} from '~/shared/player/listening'

describe('listening session', () => {
  test('ids are session_{timestamp}_{9 base-36 characters}', () => {
    const id = newSessionId(1_700_000_000_000)
    expect(id).toMatch(/^session_1700000000000_[0-9a-z]{9}$/)
    expect(id).toMatch(SESSION_ID_PATTERN)
    // Even a generator at its extremes gives nine characters.
    expect(newSessionId(5, () => 0)).toBe('session_5_000000000')
    expect(newSessionId(5, () => 0.999999)).toBe('session_5_zzzzzzzzz')
    const many = new Set(Array.from({ length: 200 }, () => newSessionId(1)))
    expect(many.size).toBe(200)
  })

  test('a new session starts at position 0 with no tracks', () => {
    const s = newSession(1000)
    expect(s).toMatchObject({ startedAt: 1000, position: 0, tracks: [] })
  })

  test('adding records a track once but always advances the position', () => {
    let s = newSession(0)
    s = addTrack(s, 'a')
    s = addTrack(s, 'b')
    s = addTrack(s, 'a')
    expect(s.tracks).toEqual(['a', 'b'])
    expect(s.position).toBe(3)
  })

  test('previous track is the second-to-last recorded; next is the following entry of a list', () => {
    let s = newSession(0)
    expect(previousTrackOf(s)).toBeNull()
    s = addTrack(s, 'a')
    expect(previousTrackOf(s)).toBeNull()
    s = addTrack(s, 'b')
    expect(previousTrackOf(s)).toBe('a')
    const list = [{ url: 'u1' }, { url: 'u2' }]
    expect(nextTrackOf(list, 'u1')).toBe('u2')
    expect(nextTrackOf(list, 'u2')).toBeNull()
    expect(nextTrackOf(list, 'zz')).toBeNull()
  })

  test('duration is elapsed whole seconds', () => {
    expect(sessionDuration(newSession(1000), 4999)).toBe(3)
    expect(sessionDuration(newSession(1000), 500)).toBe(0)
  })
})

describe('completion and skip rule', () => {
  test('completed at 80 % or more of a known duration', () => {
    expect(isCompleted(80, 100)).toBe(true)
    expect(isCompleted(79.9, 100)).toBe(false)
    expect(isCompleted(200, 100)).toBe(true)
    expect(isCompleted(50, 0)).toBe(false)
    expect(isCompleted(Number.NaN, 100)).toBe(false)
    expect(isCompleted(10, Number.POSITIVE_INFINITY)).toBe(false)
  })

  test('leaving early reports skipped with the skip time; leaving late reports completed', () => {
    expect(leaveReport(30, 100, 31.234)).toEqual({ completed: false, skipped: true, skipTime: 31.23 })
    expect(leaveReport(85, 100, 90)).toEqual({ completed: true, skipped: false })
    expect(leaveReport(5, 0, -1)).toEqual({ completed: false, skipped: true, skipTime: 0 })
  })
})

describe('playback errors and adverts', () => {
  test('media error codes map to their texts', async () => {
    const { mediaErrorMessage, playbackErrorText, isIgnorablePlayRejection, shouldShowAd, AD_CHANCE } = await import('~/shared/player/errors')
    expect([1, 2, 3, 4, 9, undefined].map(mediaErrorMessage)).toEqual([
      'Media playback aborted',
      'Network error occurred during download',
      'Media decoding error',
      'Media format not supported by browser',
      'An unknown error occurred',
      'An unknown error occurred',
    ])
    expect(playbackErrorText(4)).toBe('Playback Error: Media format not supported by browser')
    expect(isIgnorablePlayRejection(new DOMException('x', 'AbortError'))).toBe(true)
    expect(isIgnorablePlayRejection(new DOMException('x', 'NotSupportedError'))).toBe(false)
    expect(AD_CHANCE).toBe(0.3)
    expect(shouldShowAd(false, 0.3, 0.29)).toBe(true)
    expect(shouldShowAd(false, 0.3, 0.3)).toBe(false)
    expect(shouldShowAd(true, 1, 0)).toBe(false)
  })
})
