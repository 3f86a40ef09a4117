// Playback error texts: what each MediaError code shows the listener.
export const MEDIA_ERROR_MESSAGES: Readonly<Record<number, string>> = {
  1: 'Media playback aborted',
  2: 'Network error occurred during download',
  3: 'Media decoding error',
  4: 'Media format not supported by browser',
}

export function mediaErrorMessage(code: number | undefined | null): string {
  return (code && MEDIA_ERROR_MESSAGES[code]) || 'An unknown error occurred'
}

export const PLAYBACK_ERROR_HINT = 'Please try a different file or format.'
export const playbackErrorText = (code: number | undefined | null) => `Playback Error: ${mediaErrorMessage(code)}`

/** play() rejections that are not failures: a newer load interrupted it, or autoplay was refused. */
export function isIgnorablePlayRejection(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name
  return name === 'AbortError' || name === 'NotAllowedError'
}

/** The ad decision at a track end: never on repeat, otherwise with the given chance. */
export function shouldShowAd(repeat: boolean, chance: number, roll: number): boolean {
  return !repeat && Number.isFinite(chance) && roll < chance
}
export const AD_CHANCE = 0.3
