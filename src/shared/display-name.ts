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
