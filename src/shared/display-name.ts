/** The account menu's name: the e-mail's local part, dots and underscores as spaces, words capitalised. */
export function displayName(email: string): string {
  const local = email.split('@')[0] ?? ''
  return local
    .replace(/[._]+/g, ' ')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ')
}

/**
 * The name the account menu shows: the username the member chose (and may change on /profile),
 * else, where no username is known, the name made from the e-mail.
 */
export function accountName(user: { username?: string; email: string }): string {
  return user.username?.trim() || displayName(user.email)
}
