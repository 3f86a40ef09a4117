// What the library API (/api/library) answers, shared by the server that
// builds it and the browser that shows it. A LibraryTrack is a player Track (url, title, mime,
// artist, album, duration, cover…) plus the ids that lead to its album and artist.
import type { Track } from './player/track'

export type LibraryTrack = Track & {
  id: string
  artistId: string
  albumId: string
  track?: number
  disc?: number
  /** kbit/s. */
  bitrate?: number
}

export type LibraryAlbum = {
  id: string
  name: string
  artist: string
  artistId: string
  year?: number
  genre?: string
  songCount: number
  /** Seconds. */
  duration: number
  cover?: string
  /** When its first track was indexed (ISO). */
  addedAt: string
}

export type LibraryArtist = { id: string; name: string; albumCount: number; songCount: number; cover?: string }
export type LibraryGenre = { name: string; songCount: number; albumCount: number }
export type LibraryFolderEntry = { name: string; path: string }

export type LibrarySearchResult = { artists: LibraryArtist[]; albums: LibraryAlbum[]; tracks: LibraryTrack[] }
/** A page of a long list; `next` is the cursor of the page after it, null on the last page. */
export type LibraryAlbumPage = { albums: LibraryAlbum[]; total: number; next: string | null }
export type LibraryArtistPage = { artists: LibraryArtist[]; total: number; next: string | null }
export type LibraryTrackPage = { tracks: LibraryTrack[]; total: number; next: string | null }
export type LibraryAlbumDetail = LibraryAlbum & { tracks: LibraryTrack[] }
/** An artist's page: `biography` from artist.txt beside its music, when there is one. */
export type LibraryArtistDetail = LibraryArtist & { biography?: string; albums: LibraryAlbum[]; tracks: LibraryTrack[] }
export type LibraryFolderListing = { path: string; folders: LibraryFolderEntry[]; tracks: LibraryTrack[] }
