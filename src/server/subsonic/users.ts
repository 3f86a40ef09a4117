// getUser / getUsers: a member in the Subsonic User shape, its roles from what the server lets a
// member of that role do over /rest (every member streams, downloads, sees covers, scrobbles and
// saves queues; only an admin administers, i.e. may start a scan or list members; nothing here
// uploads, comments, shares, runs podcasts or the jukebox, or converts video on request).
import type { Db } from '~/db/client'
import { ROOT_FOLDER_ID } from './library'
import type { Payload } from './response'

type Member = { id: string; username: string; isAdmin: boolean }

export function userPayload(member: Member): Payload {
  return {
    username: member.username,
    scrobblingEnabled: true,
    adminRole: member.isAdmin,
    settingsRole: true,
    downloadRole: true,
    uploadRole: false,
    playlistRole: false,
    coverArtRole: false,
    commentRole: false,
    // Every member may follow podcasts (new feeds may be kept to admins: createPodcastChannel then says so).
    podcastRole: true,
    streamRole: true,
    jukeboxRole: false,
    shareRole: false,
    videoConversionRole: false,
    folder: [ROOT_FOLDER_ID],
  }
}

export function memberByUsername(db: Db, username: string): Member | null {
  const row = db.$client
    .query<{ id: string; username: string; isAdmin: number }, [string]>('SELECT id, username, is_admin AS isAdmin FROM users WHERE username = ?')
    .get(username)
  return row ? { id: row.id, username: row.username, isAdmin: row.isAdmin === 1 } : null
}

/** Every member, by username; bounded (an admin's app shows a list, not a directory of millions). */
export function allMembers(db: Db, limit = 1000): Member[] {
  return db.$client
    .query<{ id: string; username: string; isAdmin: number }, [number]>('SELECT id, username, is_admin AS isAdmin FROM users ORDER BY username LIMIT ?')
    .all(limit)
    .map((r) => ({ id: r.id, username: r.username, isAdmin: r.isAdmin === 1 }))
}
