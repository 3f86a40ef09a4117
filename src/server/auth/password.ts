// Passwords are hashed with argon2id, through Bun's built-in hasher.
export const hashPassword = (password: string) => Bun.password.hash(password, { algorithm: 'argon2id' })

export async function verifyPassword(password: string, hash: string): Promise<boolean> {
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
