// Counts read right on every screen ("1 listener", never "1 listeners").
import { expect, test } from 'bun:test'
import { plural } from '~/shared/plural'

test('one is singular; zero and many are plural, with thousands separated', () => {
  expect(plural(1, 'listener')).toBe('1 listener')
  expect(plural(0, 'play')).toBe('0 plays')
  expect(plural(2481, 'play')).toBe('2,481 plays')
  expect(plural(2, 'match', 'matches')).toBe('2 matches')
  expect(plural(1, 'match', 'matches')).toBe('1 match')
})
