// How long a play was heard, measured in media time between the moments sound starts and stops
// (playing → pause, stall, end, seek). Each stretch adds its end position minus its start, so
// the count does not depend on how often `timeupdate` fires: a busy or throttled page (a slow
// phone, a background tab) delivers it seconds apart, and the old per-timeupdate sum, which had
// to drop gaps over 1.5 s to leave seeks out, dropped those listened seconds with them. A seek
// ends the stretch at the position it left and the next one starts where it landed.

export type ListenMeter = {
  /** Seconds heard in closed stretches. */
  readonly heard: number
  /** Where the open stretch started (media time), null while no sound plays. */
  readonly from: number | null
}

export const silentMeter = (): ListenMeter => ({ heard: 0, from: null })

/** Sound starts (or goes on) at media time `at`; an open stretch stays as it is. */
export const meterStart = (m: ListenMeter, at: number): ListenMeter => (m.from === null && Number.isFinite(at) ? { ...m, from: at } : m)

/** Sound stops at media time `at`: the open stretch is counted. */
export const meterStop = (m: ListenMeter, at: number): ListenMeter => (m.from === null ? m : { heard: meterRead(m, at), from: null })

/** Seconds heard so far, the open stretch counted up to `at`. */
export const meterRead = (m: ListenMeter, at: number): number => m.heard + (m.from === null || !Number.isFinite(at) ? 0 : Math.max(0, at - m.from))
