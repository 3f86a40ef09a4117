// The last folder a member played, for /player without ?fid. The `vibes:user:` prefix makes
// logout clear it with the rest of the member's stored state.
export const LAST_FOLDER_KEY = 'vibes:user:lastFolderId'

export function rememberFolder(id: string) {
  try {
    localStorage.setItem(LAST_FOLDER_KEY, id)
  } catch {}
}

export function lastFolder(): string | null {
  try {
    return localStorage.getItem(LAST_FOLDER_KEY)
  } catch {
    return null
  }
}
