// Subsonic and OpenSubsonic methods Vibes knows but does not answer: those that do not apply to
// it, with the reason, and features it has not (yet) got over /rest. An app calling one gets a
// failed answer with HTTP 200 (error 0), which it shows as a missing feature; a 404 or 501 many
// apps read as "server offline". A name not listed here and not in methods.ts is unknown: error
// 70, also HTTP 200.
export const DOES_NOT_APPLY: Record<string, string> = {
  // Jukebox mode plays on the server's own sound card; Vibes has none and plays on the listener's device.
  jukeboxControl: 'jukeboxControl does not apply: the Vibes server has no audio output, music plays on your device',
}

export const NOT_IMPLEMENTED = new Set([
  'search',
  'createUser',
  'updateUser',
  'deleteUser',
  'changePassword',
  'getChatMessages',
  'addChatMessage',
  'getVideos',
  'getVideoInfo',
  'getCaptions',
  'hls',
  'getTranscodeDecision',
  'getTranscodeStream',
  'getSonicSimilarTracks',
  'findSonicPath',
])
