// Tag reading for the server (library scan, folder playlists, covers). music-metadata adds about
// 17 MB to the process on import, and a server with no library never reads a tag, so it is
// loaded on the first read instead of at start-up (decision 028).
import type { IAudioMetadata, IOptions } from 'music-metadata'

export async function parseTags(file: string, options: IOptions): Promise<IAudioMetadata> {
  const { parseFile } = await import('music-metadata')
  return parseFile(file, options)
}
