// Accounts at an outside identity provider (OpenID Connect, GitHub, Google) linked to a member: the
// provider's own id for the person (`subject`, never the e-mail, which can change hands) names the
// member they sign in as. A member may have several; one provider account opens one member.
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { now } from './columns'
import { users } from './users'

export const signInIdentities = sqliteTable(
  'sign_in_identities',
  {
    provider: text().notNull(),
    subject: text().notNull(),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The e-mail the provider vouched for when the link was made (shown to the member, not used to match). */
    email: text(),
    createdAt: integer({ mode: 'timestamp_ms' }).notNull().$defaultFn(now),
  },
  (t) => [primaryKey({ columns: [t.provider, t.subject] }), index('sign_in_identities_user_id_idx').on(t.userId)],
)

export type SignInIdentity = typeof signInIdentities.$inferSelect
