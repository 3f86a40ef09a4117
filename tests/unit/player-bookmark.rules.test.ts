// The player's bookmark rules: when "Resume from" is offered and which tracks offer "Bookmark position".
import { describe, expect, test } from 'bun:test'
import { canBookmark, LONG_TRACK_SEC, RESUME_MARGIN_SEC, resumeFrom } from '~/shared/player/bookmark'

describe('resume offer', () => {
  test('offered while the playback is before the bookmark by more than the margin', () => {
    expect(resumeFrom(90_000, 0, false)).toBe(90)
    expect(resumeFrom(90_000, 90 - RESUME_MARGIN_SEC - 1, false)).toBe(90)
  })
  test('not offered at or past the bookmark, without one, or once dismissed', () => {
    expect(resumeFrom(90_000, 90 - RESUME_MARGIN_SEC, false)).toBeNull()
    expect(resumeFrom(90_000, 120, false)).toBeNull()
    expect(resumeFrom(null, 0, false)).toBeNull()
    expect(resumeFrom(undefined, 0, false)).toBeNull()
    expect(resumeFrom(90_000, 0, true)).toBeNull()
  })
})

describe('bookmark position', () => {
  test('library tracks of ten minutes or more; not shorter ones, remote or local files', () => {
    expect(canBookmark('/media/Books/Ch1.mp3?exp=1&sig=x', LONG_TRACK_SEC)).toBe(true)
    expect(canBookmark('/media/Books/Ch1.mp3', LONG_TRACK_SEC - 1)).toBe(false)
    expect(canBookmark('https://example.com/long.mp3', 3600)).toBe(false)
    expect(canBookmark('local:Books/Ch1.mp3', 3600)).toBe(false)
  })
})
