// Contact messages for the admin inbox. The form has no subject field, so the inbox subject is
// derived from the message: its first line, cut at the first sentence, at most ~60 characters.
import { type Db, tablesOf } from '~/db/engine'
import type { ContactInput } from '~/shared/validators'

export const SUBJECT_MAX = 60

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' })

export function deriveSubject(message: string): string {
  const firstLine = message.trim().split(/\r?\n/)[0] ?? ''
  // The first sentence: up to the first . ! ? … that is followed by a space or the end.
  const sentence = /^(.+?[.!?…])(?:\s|$)/.exec(firstLine)?.[1] ?? firstLine
  const text = sentence.replace(/\s+/g, ' ').trim()
  if (!text) return '(no subject)'
  // Counted and cut in characters as shown (an emoji is one), never inside a surrogate pair.
  const chars = Array.from(graphemes.segment(text), (g) => g.segment)
  if (chars.length <= SUBJECT_MAX) return text
  const cut = chars.slice(0, SUBJECT_MAX - 1).join('')
  const lastSpace = cut.lastIndexOf(' ')
  // Cut on a word boundary unless that would throw away most of the line.
  const head = lastSpace >= SUBJECT_MAX / 2 ? cut.slice(0, lastSpace) : cut
  return `${head.replace(/[\s,;:.!?-]+$/, '')}…`
}

export async function createContactMessage(db: Db, input: ContactInput) {
  const { contactMessages } = tablesOf(db)
  const [row] = await db
    .insert(contactMessages)
    .values({ name: input.fullName, email: input.email, subject: deriveSubject(input.message), message: input.message, read: false, important: false })
    .returning({ id: contactMessages.id, subject: contactMessages.subject, createdAt: contactMessages.createdAt })
  return { id: row.id, subject: row.subject, createdAt: row.createdAt.toISOString() }
}
