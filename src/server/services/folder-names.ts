// Names for the playlist ids of Listening Analytics (issue 13 item 4): a play from a member's
// folder carries that folder's id, which means nothing to an admin. The analytics query stays as
// it is (it only groups by id); this adds the folder's label and owner, one indexed lookup for
// the page's few ids. An id with no folder (deleted since, or a client's own id) stays unnamed.
import { eq, inArray } from 'drizzle-orm'
import type { Db } from '~/db/client'
import { folders, users } from '~/db/schema'

export type FolderName = { name: string | null; owner: string | null }

export function withFolderNames<T extends { playlistId: string }>(db: Db, playlists: readonly T[]): Array<T & FolderName> {
  const ids = [...new Set(playlists.map((p) => p.playlistId))]
  const found = new Map(
    ids.length === 0
      ? []
      : db
          .select({ id: folders.id, name: folders.label, owner: users.username })
          .from(folders)
          .innerJoin(users, eq(users.id, folders.userId))
          .where(inArray(folders.id, ids))
          .all()
          .map((f) => [f.id, f] as const),
  )
  return playlists.map((p) => ({ ...p, name: found.get(p.playlistId)?.name ?? null, owner: found.get(p.playlistId)?.owner ?? null }))
}
