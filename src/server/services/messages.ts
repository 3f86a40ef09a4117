// The admin inbox: contact messages newest first, filtered by
// unread or important, paged by a keyset cursor so a long inbox never loads whole. The list
// carries a short preview; the full body comes with the detail.
import { InvalidError, NotFoundError } from '../errors'
import { and, count, desc, eq, lt, lte, or, type SQL } from 'drizzle-orm'
import { type Db, type Tables, tablesOf } from '~/db/engine'
import type { AdminMessageListInput, MessageFilter } from '~/shared/validators/admin'

export const MESSAGE_NOT_FOUND = 'Message not found'
export const PREVIEW_CHARS = 140

export type MessageSummary = { id: string; name: string; email: string; subject: string; preview: string; date: string; read: boolean; important: boolean }
export type MessageDto = { id: string; name: string; email: string; subject: string; message: string; date: string; read: boolean; important: boolean }
export type MessageCounts = { total: number; unread: number; important: number }
export type MessagePage = { messages: MessageSummary[]; nextCursor: string | null; counts: MessageCounts }

const notFound = () => new NotFoundError(MESSAGE_NOT_FOUND)

// Each filter reads one of the (flag, created_at) indexes.
function filterWhere(m: Tables['contactMessages'], filter: MessageFilter): SQL | undefined {
  if (filter === 'unread') return eq(m.read, false)
  if (filter === 'important') return eq(m.important, true)
  return undefined
}

// The cursor names the last row shown: its time and id (ties on time are broken by id).
const encodeCursor = (date: Date, id: string) => `${date.getTime()}_${id}`
function decodeCursor(cursor: string): { at: Date; id: string } {
  const match = /^(\d{1,15})_([\w-]{1,64})$/.exec(cursor)
  if (!match) throw new InvalidError('cursor is not valid', 'cursor')
  return { at: new Date(Number(match[1])), id: match[2] }
}

/** One line of the body for the list: whitespace folded, cut on a character boundary. */
function preview(message: string): string {
  const flat = message.replace(/\s+/g, ' ').trim()
  const chars = Array.from(flat)
  return chars.length <= PREVIEW_CHARS
    ? flat
    : `${chars
        .slice(0, PREVIEW_CHARS - 1)
        .join('')
        .trimEnd()}…`
}

/** Inbox totals for the filter line (each count reads an index, not the bodies). */
export async function messageCounts(db: Db): Promise<MessageCounts> {
  const { contactMessages: m } = tablesOf(db)
  const countOf = async (where?: SQL) => Number((await db.select({ n: count() }).from(m).where(where))[0]?.n ?? 0)
  const [total, unread, important] = await Promise.all([countOf(), countOf(eq(m.read, false)), countOf(eq(m.important, true))])
  return { total, unread, important }
}

export async function listMessages(db: Db, input: AdminMessageListInput): Promise<MessagePage> {
  const { contactMessages: m } = tablesOf(db)
  const { filter, limit, cursor } = input
  const after = cursor ? decodeCursor(cursor) : null
  // `created_at <= t` bounds the index range; the OR only sorts out rows sharing that instant.
  const where = and(filterWhere(m, filter), after ? and(lte(m.createdAt, after.at), or(lt(m.createdAt, after.at), lt(m.id, after.id))) : undefined)
  const rows = await db
    .select({ id: m.id, name: m.name, email: m.email, subject: m.subject, message: m.message, createdAt: m.createdAt, read: m.read, important: m.important })
    .from(m)
    .where(where)
    .orderBy(desc(m.createdAt), desc(m.id))
    .limit(limit + 1)
  const page = rows.slice(0, limit)
  const last = page.at(-1)
  return {
    messages: page.map((r) => ({
      id: r.id,
      name: r.name,
      email: r.email,
      subject: r.subject,
      preview: preview(r.message),
      date: r.createdAt.toISOString(),
      read: r.read,
      important: r.important,
    })),
    nextCursor: rows.length > limit && last ? encodeCursor(last.createdAt, last.id) : null,
    counts: await messageCounts(db),
  }
}

const detailColumns = ({ contactMessages: m }: Tables) => ({
  id: m.id,
  name: m.name,
  email: m.email,
  subject: m.subject,
  message: m.message,
  createdAt: m.createdAt,
  read: m.read,
  important: m.important,
})
const toDto = (r: {
  id: string
  name: string
  email: string
  subject: string
  message: string
  createdAt: Date
  read: boolean
  important: boolean
}): MessageDto => ({
  id: r.id,
  name: r.name,
  email: r.email,
  subject: r.subject,
  message: r.message,
  date: r.createdAt.toISOString(),
  read: r.read,
  important: r.important,
})

export async function getMessage(db: Db, id: string): Promise<MessageDto> {
  const t = tablesOf(db)
  const [row] = await db.select(detailColumns(t)).from(t.contactMessages).where(eq(t.contactMessages.id, id))
  if (!row) throw notFound()
  return toDto(row)
}

/** Sets read and/or important (they toggle independently). */
export async function updateMessage(db: Db, id: string, flags: { read?: boolean; important?: boolean }): Promise<MessageDto> {
  const t = tablesOf(db)
  const m = t.contactMessages
  const changes = { ...(flags.read === undefined ? {} : { read: flags.read }), ...(flags.important === undefined ? {} : { important: flags.important }) }
  const [row] = await db.update(m).set(changes).where(eq(m.id, id)).returning(detailColumns(t))
  if (!row) throw notFound()
  return toDto(row)
}

export async function deleteMessage(db: Db, id: string): Promise<{ id: string; deleted: true }> {
  const { contactMessages: m } = tablesOf(db)
  const [row] = await db.delete(m).where(eq(m.id, id)).returning({ id: m.id })
  if (!row) throw notFound()
  return { id: row.id, deleted: true }
}
