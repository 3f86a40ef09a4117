// getUser / getUsers: a member in the Subsonic User shape, its roles from what the server lets a
// member of that role do over /rest (every member streams, downloads, sees covers, scrobbles and
// saves queues; only an admin administers, i.e. may start a scan or list members; nothing here
// uploads, comments, shares, runs podcasts or the jukebox, or converts video on request).
import { eq } from 'drizzle-orm'
import { type Db, type Tables, tablesOf } from '~/db/engine'
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

const memberColumns = ({ users }: Tables) => ({ id: users.id, username: users.username, isAdmin: users.isAdmin })

export async function memberByUsername(db: Db, username: string): Promise<Member | null> {
  const t = tablesOf(db)
  const [row] = await db.select(memberColumns(t)).from(t.users).where(eq(t.users.username, username))
  return row ?? null
}

/** Every member, by username; bounded (an admin's app shows a list, not a directory of millions). */
export function allMembers(db: Db, limit = 1000): Promise<Member[]> {
  const t = tablesOf(db)
  return db.select(memberColumns(t)).from(t.users).orderBy(t.users.username).limit(limit)
}
