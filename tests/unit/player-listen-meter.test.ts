// The listen meter: seconds heard are counted from the positions where sound started and stopped,
// however rarely the page sees the time move.
import { describe, expect, test } from 'bun:test'
import { meterRead, meterStart, meterStop, silentMeter } from '~/client/features/player/listen-meter'

describe('listen meter', () => {
  test('a stretch counts from where sound started to where it stopped, with no time reports between', () => {
    const m = meterStop(meterStart(silentMeter(), 0), 9.5)
    expect(m).toEqual({ heard: 9.5, from: null })
  })

  test('pauses add up stretches; a read counts the open stretch up to now', () => {
    let m = meterStop(meterStart(silentMeter(), 0), 4.2)
    m = meterStart(m, 4.2)
    expect(meterRead(m, 7)).toBeCloseTo(7)
    m = meterStop(m, 8)
    expect(meterRead(m, 100)).toBeCloseTo(8)
  })

  test('a seek ends the stretch where it left and the next starts where it landed (a restored place too)', () => {
    let m = meterStart(silentMeter(), 0)
    m = meterStop(m, 3) // seek from 3 s …
    m = meterStart(m, 40) // … to 40 s
    expect(meterRead(m, 42)).toBeCloseTo(5)
  })

  test('starting twice keeps the first start; stopping while silent changes nothing; time never counts backwards', () => {
    let m = meterStart(meterStart(silentMeter(), 1), 5)
    expect(m.from).toBe(1)
    m = meterStop(meterStop(m, 2), 50)
    expect(m.heard).toBeCloseTo(1)
    expect(meterRead(meterStart(silentMeter(), 10), 4)).toBe(0)
  })
})
