import { describe, expect, test } from 'bun:test'
import { relativeTime, shortDate } from '~/shared/relative-time'

const NOW = new Date('2026-06-15T12:00:00Z').getTime()
const ago = (ms: number) => new Date(NOW - ms)
const MIN = 60_000
const HOUR = 60 * MIN
const DAY = 24 * HOUR

describe('relativeTime', () => {
  test('under a minute, and the future, read "just now"', () => {
    expect(relativeTime(ago(0), NOW)).toBe('just now')
    expect(relativeTime(ago(59_999), NOW)).toBe('just now')
    expect(relativeTime(ago(-5 * MIN), NOW)).toBe('just now')
  })

  test('minutes, then hours, then days, singular and plural', () => {
    expect(relativeTime(ago(MIN), NOW)).toBe('1 minute ago')
    expect(relativeTime(ago(59 * MIN + 59_000), NOW)).toBe('59 minutes ago')
    expect(relativeTime(ago(HOUR), NOW)).toBe('1 hour ago')
    expect(relativeTime(ago(23 * HOUR + 59 * MIN), NOW)).toBe('23 hours ago')
    expect(relativeTime(ago(DAY), NOW)).toBe('1 day ago')
    expect(relativeTime(ago(2 * DAY), NOW)).toBe('2 days ago')
  })

  test('days up to 29, then a short date', () => {
    expect(relativeTime(ago(29 * DAY + 23 * HOUR), NOW)).toBe('29 days ago')
    expect(relativeTime(ago(30 * DAY), NOW)).toBe(shortDate(ago(30 * DAY), new Date(NOW)))
    expect(relativeTime(new Date('2026-03-04T12:00:00Z'), NOW, 'en-US')).toBe('Mar 4')
    expect(relativeTime(new Date('2024-03-04T12:00:00Z'), NOW, 'en-US')).toBe('Mar 4, 2024')
  })

  test('accepts ISO strings and numbers; an invalid date reads empty', () => {
    expect(relativeTime('2026-06-15T11:00:00Z', NOW)).toBe('1 hour ago')
    expect(relativeTime(NOW - 3 * MIN, NOW)).toBe('3 minutes ago')
    expect(relativeTime('not a date', NOW)).toBe('')
  })
})
