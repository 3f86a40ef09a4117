// The length of an Ogg file on disk from its last page (the rule: src/shared/player/ogg-last-page.ts).
import { OGG_MAX_PAGE, oggDurationInTail } from '~/shared/player/ogg-last-page'

/** Seconds of audio, or null when the tail holds no page with a position. */
export async function oggDurationFromLastPage(file: string, sampleRate: number): Promise<number | null> {
  if (!(sampleRate > 0)) return null
  const blob = Bun.file(file)
  const size = blob.size
  return oggDurationInTail(new Uint8Array(await blob.slice(Math.max(0, size - OGG_MAX_PAGE), size).arrayBuffer()), sampleRate)
}
