// Changes to an account (its name, e-mail, password, app keys, deletion) are confirmed with the
// current password, so a session left open on a shared computer, or stolen, cannot take the
// account over or mint a way back in.
import { InvalidError } from '../errors'
import { eq } from 'drizzle-orm'
import type { Db } from '~/db/client'
import { tablesOf } from '~/db/engine'
import { verifyPassword } from './password'

export const WRONG_PASSWORD = 'Current password is incorrect'

/** 400 (never 401: the session is fine, only the confirmation is wrong) unless the password matches. */
export async function confirmPassword(db: Db, userId: string, password: string): Promise<void> {
  const { users } = tablesOf(db)
  const [row] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId))
  if (!row || !(await verifyPassword(password, row.passwordHash))) throw new InvalidError(WRONG_PASSWORD, 'currentPassword')
}
