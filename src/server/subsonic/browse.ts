// The folder-based ("non-ID3") shapes older apps browse with, made from the same index reads as
// their ID3 twins: an album is a Child directory (isDir, title, parent = its artist) and
// getMusicDirectory opens it, or an artist, by the index's id, as Navidrome's do; an artist is the
// plain Artist (id, name). Song lists by genre walk library_tracks_genre_idx.
import { sql } from 'drizzle-orm'
import { type Db, firstRow, rows } from '~/db/engine'
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
export async function entityDirectory(db: Db, id: string, starred: Marks): Promise<Payload | null> {
  const albums = sql.raw(ALBUM_SELECT)
  const album = await firstRow<AlbumRow>(db, sql`${albums} WHERE a.id = ${id}`)
  if (album) {
    const songs = await rows<LibraryRow>(db, sql`${sql.raw(LIBRARY_SELECT)} WHERE t.album_id = ${id}`)
    songs.sort((a, b) => (a.disc ?? 0) - (b.disc ?? 0) || (a.track ?? 0) - (b.track ?? 0) || naturalCompare(a.path, b.path))
    return { id: album.id, parent: album.artistId, name: album.name, child: songs.map((s) => ({ ...song(s, starred), parent: album.id })) }
  }
  const artist = await firstRow<ArtistRow>(db, sql`${sql.raw(ARTIST_SELECT)} WHERE r.id = ${id}`)
  if (!artist) return null
  const ofArtist = await rows<AlbumRow>(db, sql`${albums} WHERE a.artist_id = ${id} ORDER BY a.year, a.sort_name`)
  return {
    id: artist.id,
    name: artist.name,
    child: ofArtist.map((a) => ({
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
export async function songsByGenre(db: Db, genre: string, count: number, offset: number, starred: Marks): Promise<Payload[]> {
  const songs = await rows<LibraryRow>(db, sql`${sql.raw(LIBRARY_SELECT)} WHERE t.genre = ${genre} ORDER BY t.genre, t.seq LIMIT ${count} OFFSET ${offset}`)
  return songs.map((s) => song(s, starred))
}
