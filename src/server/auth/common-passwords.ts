// The passwords people use most, refused for a new password (sign-up, reset, change). The list is
// zxcvbn-ts's "passwords-common" dictionary (~49,000 passwords from leaked-password frequency
// lists, lowercase), bundled from the installed package: no network at run time. The lookup set is built
// on the first check, and a password is compared case-blind and trimmed, since "Password1 " is as
// guessable as "password1".
import passwords from '@zxcvbn-ts/language-common/src/passwords.json'
import { newPasswordField } from '~/shared/validators/fields'

let common: Set<string> | undefined

export function isCommonPassword(password: string): boolean {
  common ??= new Set<string>(passwords)
  return common.has(password.trim().toLowerCase())
}

/** The shared new-password rule with the server's list. */
export const uncommonPasswordField = newPasswordField(isCommonPassword)
