// The folder-based ("non-ID3") shapes older apps browse with, made from the same index reads as
// their ID3 twins: an album is a Child directory (isDir, title, parent = its artist) and
// getMusicDirectory opens it, or an artist, by the index's id, as Navidrome's do; an artist is the
// plain Artist (id, name). Song lists by genre walk library_tracks_genre_idx.
import type { Db } from '~/db/client'
import { LIBRARY_SELECT, type LibraryRow } from '../catalog/track'
import { ALBUM_SELECT, ARTIST_SELECT, type AlbumRow, type ArtistRow } from '../services/library-index'
import { naturalCompare } from '../media/natural'
import { type Marks, song } from './library'
import type { Payload } from './response'

/** An AlbumID3 payload (library.ts album()) as the Child directory getAlbumList and search2 list. */
export function albumChild(a: Payload): Payload {
  return {
    id: a.id,
    parent: a.artistId,
    isDir: true,
    title: a.name,
    album: a.name,
    artist: a.artist,
    year: a.year,
    genre: a.genre,
    coverArt: a.coverArt,
    duration: a.duration,
    created: a.created,
    albumId: a.id,
    artistId: a.artistId,
    songCount: a.songCount,
    userRating: a.userRating,
    mediaType: 'album',
  }
}

/** An ArtistID3 payload as the folder-based Artist. */
export const plainArtist = (a: Payload): Payload => ({ id: a.id, name: a.name })

/** getMusicDirectory for an album id (its songs) or an artist id (its albums); null for neither. */
export function entityDirectory(db: Db, id: string, starred: Marks): Payload | null {
  const c = db.$client
  const album = c.query<AlbumRow, [string]>(`${ALBUM_SELECT} WHERE a.id = ?`).get(id)
  if (album) {
    const songs = c.query<LibraryRow, [string]>(`${LIBRARY_SELECT} WHERE t.album_id = ?`).all(id)
    songs.sort((a, b) => (a.disc ?? 0) - (b.disc ?? 0) || (a.track ?? 0) - (b.track ?? 0) || naturalCompare(a.path, b.path))
    return { id: album.id, parent: album.artistId, name: album.name, child: songs.map((s) => ({ ...song(s, starred), parent: album.id })) }
  }
  const artist = c.query<ArtistRow, [string]>(`${ARTIST_SELECT} WHERE r.id = ?`).get(id)
  if (!artist) return null
  const albums = c.query<AlbumRow, [string]>(`${ALBUM_SELECT} WHERE a.artist_id = ? ORDER BY a.year, a.sort_name`).all(id)
  return {
    id: artist.id,
    name: artist.name,
    child: albums.map((a) => ({
      id: a.id,
      parent: artist.id,
      isDir: true,
      title: a.name,
      album: a.name,
      artist: a.artist,
      year: a.year ?? undefined,
      coverArt: a.coverPath ? a.id : undefined,
    })),
  }
}

/** getSongsByGenre: a page of the genre's songs, in the genre index's order. */
export function songsByGenre(db: Db, genre: string, count: number, offset: number, starred: Marks): Payload[] {
  return db.$client
    .query<LibraryRow, [string, number, number]>(`${LIBRARY_SELECT} WHERE t.genre = ? ORDER BY t.genre, t.seq LIMIT ? OFFSET ?`)
    .all(genre, count, offset)
    .map((s) => song(s, starred))
}
