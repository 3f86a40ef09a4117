// The admin audit log and the dashboard's Recent Activities (nothing fake).
// Console actions are recorded by the routers after they succeed (`recordAudit`, one row each,
// names copied in so deleted accounts still read right). So are the changes a member makes that
// open or move their account (an app key made, the e-mail or password changed, a password reset):
// after a takeover the admin can see when it happened. Recent Activities merges the newest
// console actions with what members did on their own: sign-ups, folders added, contact messages.
// Each source is one indexed "newest n" query (users, folders, messages, audit_log by time), so
// the merge costs 4 × limit rows whatever the size of the tables.
import { desc, eq } from 'drizzle-orm'
import { type Db, tablesOf } from '~/db/engine'
import type { AuthUser } from '../auth/sessions'

export type AuditAction =
  | 'user.role'
  | 'user.delete'
  | 'folder.create'
  | 'folder.update'
  | 'folder.delete'
  | 'folder.bulk-add'
  | 'library.scan'
  | 'message.update'
  | 'message.delete'
  | 'hits.clear'
  | 'adverts.update'
  | 'promotion.create'
  | 'promotion.update'
  | 'promotion.delete'
  | 'appkey.create'
  | 'account.email'
  | 'account.password'
  | 'account.password-reset'
  | 'account.sign-in-unlink'

export type AuditEntry = { id: number; at: string; actorId: string | null; actorName: string; action: AuditAction; target: string; detail: string }
export type Activity = { at: string; kind: 'signup' | 'folder' | 'message' | AuditAction; text: string }

type Actor = Pick<AuthUser, 'id' | 'username'>

/** On SQLite the row is written before this returns (a caller that does not await still records it). */
export async function recordAudit(db: Db, actor: Actor, action: AuditAction, target = '', detail = ''): Promise<void> {
  const { auditLog } = tablesOf(db)
  await db.insert(auditLog).values({ actorId: actor.id, actorName: actor.username, action, target: target.slice(0, 300), detail: detail.slice(0, 300) })
}

export async function listAudit(db: Db, limit: number): Promise<AuditEntry[]> {
  const { auditLog } = tablesOf(db)
  const rows = await db.select().from(auditLog).orderBy(desc(auditLog.at), desc(auditLog.id)).limit(limit)
  return rows.map((r) => ({ ...r, at: r.at.toISOString(), action: r.action as AuditAction }))
}

/** One line of the console's own record, as the dashboard reads it. */
export function describeAudit(e: Pick<AuditEntry, 'actorName' | 'action' | 'target' | 'detail'>): string {
  const who = e.actorName
  switch (e.action) {
    case 'user.role':
      return e.detail === 'admin' ? `${who} made ${e.target} an admin` : `${who} revoked ${e.target}'s admin rights`
    case 'user.delete':
      return `${who} deleted user ${e.target}`
    case 'folder.create':
      return `${who} added folder ${e.target}`
    case 'folder.update':
      return `${who} updated folder ${e.target}`
    case 'folder.delete':
      return `${who} deleted folder ${e.target}`
    case 'folder.bulk-add':
      return `${who} added folder ${e.target} to ${e.detail}`
    case 'library.scan':
      return `${who} started a ${e.detail === 'full' ? 'full rescan' : 'library scan'}`
    case 'message.update':
      return `${who} marked message "${e.target}" ${e.detail}`
    case 'message.delete':
      return `${who} deleted message "${e.target}"`
    case 'hits.clear':
      return `${who} cleared the page-hit data`
    case 'adverts.update':
      return `${who} set adverts ${e.detail}`
    case 'promotion.create':
      return `${who} added promotion "${e.target}"`
    case 'promotion.update':
      return `${who} updated promotion "${e.target}"`
    case 'promotion.delete':
      return `${who} deleted promotion ${e.target}`
    case 'appkey.create':
      return `${who} created app key "${e.target}"`
    case 'account.email':
      return `${who} changed their e-mail address`
    case 'account.password':
      return `${who} changed their password (${e.detail})`
    case 'account.password-reset':
      return `${who} reset their password by e-mail`
    case 'account.sign-in-unlink':
      return `${who} unlinked a sign-in provider (${e.detail})`
  }
}

export async function recentActivities(db: Db, limit: number): Promise<Activity[]> {
  const { users, folders, contactMessages } = tablesOf(db)
  const [signups, added, messages, audit] = await Promise.all([
    db.select({ at: users.createdAt, username: users.username }).from(users).orderBy(desc(users.createdAt)).limit(limit),
    db
      .select({ at: folders.createdAt, label: folders.label, username: users.username })
      .from(folders)
      .innerJoin(users, eq(users.id, folders.userId))
      .orderBy(desc(folders.createdAt))
      .limit(limit),
    db
      .select({ at: contactMessages.createdAt, name: contactMessages.name, subject: contactMessages.subject })
      .from(contactMessages)
      .orderBy(desc(contactMessages.createdAt))
      .limit(limit),
    listAudit(db, limit),
  ])
  return [
    ...signups.map((u): Activity => ({ at: u.at.toISOString(), kind: 'signup', text: `New user registered: ${u.username}` })),
    ...added.map((f): Activity => ({ at: f.at.toISOString(), kind: 'folder', text: `Folder "${f.label}" added for ${f.username}` })),
    ...messages.map((m): Activity => ({ at: m.at.toISOString(), kind: 'message', text: `Message from ${m.name}: ${m.subject}` })),
    // Folder additions are already listed from the folders table; the audit repeats only who did it.
    ...audit.filter((e) => e.action !== 'folder.create').map((e): Activity => ({ at: e.at, kind: e.action, text: describeAudit(e) })),
  ]
    .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0))
    .slice(0, limit)
}
