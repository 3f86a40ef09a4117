// Passwords are hashed with argon2id, through Bun's built-in hasher.
export const hashPassword = (password: string) => Bun.password.hash(password, { algorithm: 'argon2id' })

/**
 * The stored "hash" of a member who has no password (made at a first sign-in through a provider or
 * a trusted proxy): no password matches it, and the profile can tell that the provider is the
 * member's only way in. "Forgot your password?" replaces it with a real hash.
 */
export const NO_PASSWORD = '!'

export const hasPassword = (hash: string) => hash !== NO_PASSWORD

export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  // Verified against the dummy all the same, so the answer takes as long as a wrong password's.
  if (!hasPassword(hash)) return Bun.password.verify(password, await timingDummyHash()).then(() => false)
  try {
    return await Bun.password.verify(password, hash)
  } catch {
    return false
  }
}

// Verifying against this when the e-mail is unknown keeps the answer time the same as for a
// wrong password, so timing does not reveal which e-mails have accounts.
let dummyHash: Promise<string> | undefined
export const timingDummyHash = () => (dummyHash ??= hashPassword('not-a-real-password'))
