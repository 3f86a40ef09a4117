// One rounding rule for a track's length wherever it is shown: the player's time, Up Next and the
// library's lists all show the whole seconds passed (a 29.72 s WMA is 0:29 everywhere; it showed
// 0:29 in Up Next and 0:30 in the library's list).
import { expect, test } from 'bun:test'
import { clock } from '~/client/features/library/format'
import { formatTime } from '~/shared/player/track'

test("the library's lists show a length as the player does: whole seconds passed", () => {
  for (const seconds of [0, 29.72, 59.6, 187.5, 3599.9, 3725.2]) expect({ seconds, shown: clock(seconds) }).toEqual({ seconds, shown: formatTime(seconds) })
  expect(clock(29.72)).toBe('0:29')
})
