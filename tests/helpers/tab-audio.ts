// What a page sends to the speakers, recorded the way a listener would hear it: Chromium's own tab
// capture (getDisplayMedia of the current tab, accepted without a prompt by
// --auto-accept-this-tab-capture) recorded by a MediaRecorder as PCM in WebM, decoded by ffmpeg.
// Nothing is added to the page's audio graph, so the figure is the app's, not a test rig's.
//
// The app's pages deny screen capture (Permissions-Policy display-capture=(), decision 014); a
// capturing test relaxes that on the HTML answers it receives in its own browser context
// (allowTabCapture): the server keeps its policy.
import type { Browser, Page } from 'playwright-core'
import { launchBrowser } from './browser'

/** Chromium as launchBrowser makes it, plus the flag that accepts the page's own tab capture. */
export function launchCaptureBrowser(): Promise<Browser> {
  // Playwright mutes every tab by default; a muted tab's capture is silence.
  return launchBrowser({ ignoreDefaultArgs: ['--mute-audio'], extraArgs: ['--auto-accept-this-tab-capture'] })
}

/** Lets this page capture itself: display-capture=(self) on the HTML answers this page receives. */
export async function allowTabCapture(page: Page) {
  await page.route('**/*', async (route) => {
    if (route.request().resourceType() !== 'document') return route.fallback()
    const response = await route.fetch()
    const headers = response.headers()
    if (headers['permissions-policy']) headers['permissions-policy'] = headers['permissions-policy'].replace('display-capture=()', 'display-capture=(self)')
    await route.fulfill({ response, headers })
  })
}

/**
 * Starts recording the tab's audio. getDisplayMedia wants a user gesture: a real click on the page
 * (at its top-left corner, on no control) makes one.
 */
export async function startTabRecording(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __tabAudio?: Promise<void> }
    w.__tabAudio = new Promise<void>((resolve, reject) => {
      document.addEventListener(
        'click',
        () => {
          navigator.mediaDevices
            .getDisplayMedia({
              video: true,
              audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false },
              preferCurrentTab: true,
            } as DisplayMediaStreamOptions)
            .then((stream) => {
              const audio = new MediaStream(stream.getAudioTracks())
              if (audio.getAudioTracks().length === 0) throw new Error('tab capture gave no audio track')
              const recorder = new MediaRecorder(audio, { mimeType: 'audio/webm;codecs=pcm' })
              const chunks: Blob[] = []
              recorder.ondataavailable = (e) => chunks.push(e.data)
              recorder.start(250)
              const r = window as unknown as { __tabRecorder: { recorder: MediaRecorder; chunks: Blob[]; stream: MediaStream } }
              r.__tabRecorder = { recorder, chunks, stream }
              resolve()
            })
            .catch(reject)
        },
        { once: true, capture: true },
      )
    })
  })
  await page.mouse.click(1, 1)
  await page.evaluate(() => (window as unknown as { __tabAudio: Promise<void> }).__tabAudio)
}

/** Stops the recording; the tab's audio as mono samples at `rate` Hz. */
export async function stopTabRecording(page: Page, rate = 48_000): Promise<Float32Array> {
  const base64 = await page.evaluate(async () => {
    const { recorder, chunks, stream } = (window as unknown as { __tabRecorder: { recorder: MediaRecorder; chunks: Blob[]; stream: MediaStream } })
      .__tabRecorder
    await new Promise<void>((resolve) => {
      recorder.onstop = () => resolve()
      recorder.stop()
    })
    for (const t of stream.getTracks()) t.stop()
    const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer())
    let s = ''
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
    return btoa(s)
  })
  const decoded = Bun.spawnSync(['ffmpeg', '-hide_banner', '-loglevel', 'error', '-i', 'pipe:0', '-f', 'f32le', '-ac', '1', '-ar', String(rate), 'pipe:1'], {
    stdin: Buffer.from(base64, 'base64'),
    stdout: 'pipe',
    stderr: 'pipe',
  })
  if (decoded.exitCode !== 0) throw new Error(`ffmpeg could not read the recording: ${decoded.stderr.toString()}`)
  const out = decoded.stdout
  return new Float32Array(out.buffer.slice(out.byteOffset, out.byteOffset + Math.floor(out.byteLength / 4) * 4))
}

export type Boundary = {
  /** Silence between the last sound of the low tone and the first of the high one (ms). */
  gapMs: number
  /** Time both tones sounded at once (amplitude above either alone), ms. */
  overlapMs: number
  /** Where the high tone starts, ms from the first sound. */
  atMs: number
}

/**
 * The boundary between a low tone and a higher one in a recording (`level`: |x| of one tone as
 * played). The high tone starts where 50 ms in a row of loud 10 ms windows have the zero crossings
 * of `highHz` (a seek's click is not it); the gap is the longest silent run in the 600 ms before
 * (a seek's silence earlier is not it either).
 */
export function findBoundary(samples: Float32Array, rate: number, lowHz: number, highHz: number, level: number): Boundary | null {
  const loud = (i: number) => Math.abs(samples[i]) > 0.003
  const first = samples.findIndex((x) => Math.abs(x) > 0.003)
  if (first < 0) return null
  const win = Math.round(rate / 100)
  const middle = (lowHz + highHz) / 2 / 50 // crossings in 10 ms halfway between the tones
  const isHigh = (start: number) => {
    let crossings = 0
    let quiet = 0
    for (let i = start; i < start + win; i++) {
      if (!loud(i)) quiet++
      if (samples[i - 1] < 0 !== samples[i] < 0) crossings++
    }
    return quiet < win / 10 && crossings > middle
  }
  let high = -1
  for (let start = first + 1; start + 5 * win < samples.length; start += Math.round(win / 4)) {
    if ([0, 1, 2, 3, 4].every((k) => isHigh(start + k * win))) {
      high = start
      break
    }
  }
  if (high < 0) return null
  const from = Math.max(first, high - Math.round(0.6 * rate))
  let best = 0
  let run = 0
  let both = 0
  for (let i = from; i < high; i++) {
    if (Math.abs(samples[i]) > level * 1.15) both++
    if (loud(i)) run = 0
    else if (++run > best) best = run
  }
  for (let i = high; i < high + Math.round(0.3 * rate) && i < samples.length; i++) if (Math.abs(samples[i]) > level * 1.15) both++
  const ms = (n: number) => (n / rate) * 1000
  return { gapMs: ms(best), overlapMs: ms(both), atMs: ms(high - first) }
}
