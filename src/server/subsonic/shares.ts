// The OpenSubsonic share methods (getShares, createShare, updateShare, deleteShare) over the one
// share service of the web's /profile "Shared links" (services/shares.ts, docs/decisions/069).
// `url` is the public page /s/<id> at the origin the app reached us by. A member sees and changes
// only their own shares: another member's id is "not found" (70), as an unknown one. deleteShare
// revokes (the link then says it was revoked), so it drops off getShares as on /profile.
import { sql } from 'drizzle-orm'
import { firstRow } from '~/db/engine'
import { SHARE_DESCRIPTION_MAX } from '~/shared/validators/shares'
import { createShare, listShareRows, revokeShare, type ShareTarget, sharePath, updateShare } from '../services/shares'
import { marksOf, songById, songsByIds, song } from './library'
import type { MethodContext } from './methods'
import { ErrorCode, type Payload, SubsonicError } from './response'

const FAR_FUTURE_MS = 8_640_000_000_000

/** `expires` in ms since 1970: absent or 0 means never (undefined: not given, for updateShare). */
function expiresOf(ctx: MethodContext): Date | null | undefined {
  const ms = ctx.params.int('expires', { min: 0, max: FAR_FUTURE_MS })
  if (ms === undefined) return undefined
  if (ms === 0) return null
  if (ms <= Date.now()) throw new SubsonicError(ErrorCode.generic, 'Parameter expires must be in the future (milliseconds since 1970, or 0 for never)')
  return new Date(ms)
}

function descriptionOf(ctx: MethodContext): string | null | undefined {
  const description = ctx.params.get('description')
  if (description === undefined) return undefined
  if (description.length > SHARE_DESCRIPTION_MAX)
    throw new SubsonicError(ErrorCode.generic, `Parameter description must be at most ${SHARE_DESCRIPTION_MAX} characters`)
  return description.trim() || null
}

/** The ids of createShare as a target: songs, or one album, or one of the member's own playlists (apps send its id as `id`). */
async function targetOf(ctx: MethodContext): Promise<ShareTarget> {
  const ids = ctx.params.all('id')
  if (ids.length === 0) ctx.params.required('id')
  const songs = await songsByIds(ctx.db, ids)
  if (songs.length === ids.length) return { kind: 'tracks', ids }
  if (ids.length === 1 && !(await songById(ctx.db, ids[0]))) {
    const album = await firstRow<{ id: string }>(ctx.db, sql`SELECT id FROM library_albums WHERE id = ${ids[0]}`)
    if (album) return { kind: 'album', id: album.id }
    // Only the member's own: another member's public playlist is not theirs to share.
    const playlist = await firstRow<{ id: string }>(ctx.db, sql`SELECT id FROM playlists WHERE id = ${ids[0]} AND user_id = ${ctx.user.id}`)
    if (playlist) return { kind: 'playlist', id: playlist.id }
  }
  throw new SubsonicError(
    ErrorCode.notFound,
    ids.length === 1 ? 'Song, album or playlist not found' : 'Song not found (share several songs, or one album or playlist)',
  )
}

async function shareList(ctx: MethodContext, onlyId?: string): Promise<Payload> {
  const origin = new URL(ctx.request.url).origin
  const starred = await marksOf(ctx.db, ctx.user.id)
  const rows = (await listShareRows(ctx.db, ctx.user.id)).filter((s) => onlyId === undefined || s.id === onlyId)
  return {
    shares: {
      share: rows.map((s) => ({
        id: s.id,
        url: `${origin}${sharePath(s.id)}`,
        description: s.description ?? undefined,
        username: ctx.user.username,
        created: new Date(s.createdAt).toISOString(),
        expires: s.expiresAt === null ? undefined : new Date(s.expiresAt).toISOString(),
        lastVisited: s.lastVisitedAt === null ? undefined : new Date(s.lastVisitedAt).toISOString(),
        visitCount: s.visitCount,
        entry: s.rows.map((r) => song(r, starred)),
      })),
    },
  }
}

export const SHARE_METHODS: Record<string, (ctx: MethodContext) => Promise<Payload>> = {
  getShares: (ctx) => shareList(ctx),
  createShare: async (ctx) => {
    const target = await targetOf(ctx)
    const created = await createShare(ctx.db, ctx.user.id, { target, expiresAt: expiresOf(ctx) ?? null, description: descriptionOf(ctx) ?? null })
    return shareList(ctx, created.id)
  },
  updateShare: async (ctx) => {
    const id = ctx.params.required('id')
    const change: { description?: string | null; expiresAt?: Date | null } = {}
    const description = descriptionOf(ctx)
    const expiresAt = expiresOf(ctx)
    if (description !== undefined) change.description = description
    if (expiresAt !== undefined) change.expiresAt = expiresAt
    await updateShare(ctx.db, ctx.user.id, id, change)
    return {}
  },
  deleteShare: async (ctx) => {
    await revokeShare(ctx.db, ctx.user.id, ctx.params.required('id'))
    return {}
  },
}
