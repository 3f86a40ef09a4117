// Where a media element's sound goes (decision 051). Chromium gives every media element its own
// way to the speakers, each starting on its own clock: a track handed over to a second element
// reached the listener ~65 ms after the first one stopped. Elements routed into the page's one
// AudioContext (MediaElementAudioSourceNode) are all pulled by that context's render clock, so
// a hand-over timed to the old element's end lands within a render quantum of it.
//
// Only sources the page may read go there: local files (blob:) and our own origin. A cross-origin
// remote track without CORS reaches a graph as silence, so it keeps the element's own output; so
// does video (the full player borrows the element to show it). Routing cannot be undone, which
// is why the store keeps separate elements for the two outputs.

export type Output = 'graph' | 'element'

let context: AudioContext | null = null

/** The output for a media URL (what mediaUrlOf gives): the shared graph when the page may read it. */
export function outputFor(src: string, video: boolean): Output {
  if (video || typeof AudioContext === 'undefined') return 'element'
  if (src.startsWith('blob:')) return 'graph'
  try {
    return new URL(src, location.href).origin === location.origin ? 'graph' : 'element'
  } catch {
    return 'element'
  }
}

/** Sends the element's sound through the shared context from now on (once per element). */
export function routeToGraph(el: HTMLMediaElement) {
  // 'playback': larger render buffers; a busy main thread does not make the output crackle.
  context ??= new AudioContext({ latencyHint: 'playback' })
  context.createMediaElementSource(el).connect(context.destination)
}

/** A context made before the page's first gesture starts suspended: playing wakes it. */
export function wakeGraph() {
  if (context?.state === 'suspended') void context.resume().catch(() => {})
}
