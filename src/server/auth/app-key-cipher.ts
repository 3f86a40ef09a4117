// App keys kept encrypted, so token login (md5(key + salt)) can be checked without the database
// alone giving the keys away. AES-256-GCM with a key derived by HKDF-SHA256 from AUTH_SECRET and a
// fixed purpose label: never stored, the same after a restart, and changing AUTH_SECRET makes the
// stored keys unreadable (token login then needs a new key; apiKey and p= still work, they go by
// the key's SHA-256). The member's id is the additional data: a ciphertext copied onto another
// member's row does not open. Stored as `v1.` + base64url(iv ‖ ciphertext ‖ tag).
// Only app keys are kept this way, never the account password, which stays an argon2id hash.
import { createCipheriv, createDecipheriv, hkdfSync } from 'node:crypto'
import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from '@oslojs/encoding'

const VERSION = 'v1.'
const IV_BYTES = 12
const TAG_BYTES = 16
const derived = new Map<string, Uint8Array>()
const utf8 = (s: string) => new TextEncoder().encode(s)

function keyFor(secret: string): Uint8Array {
  let key = derived.get(secret)
  if (!key) {
    key = new Uint8Array(hkdfSync('sha256', secret, '', 'vibes app-key encryption v1', 32))
    derived.set(secret, key)
  }
  return key
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

export function encryptAppKey(secret: string, userId: string, appKey: string): string {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES))
  const cipher = createCipheriv('aes-256-gcm', keyFor(secret), iv)
  cipher.setAAD(utf8(userId))
  const body = concat(new Uint8Array(cipher.update(utf8(appKey))), new Uint8Array(cipher.final()))
  return VERSION + encodeBase64urlNoPadding(concat(iv, body, new Uint8Array(cipher.getAuthTag())))
}

/** The key, or null when the text was not sealed for this member with this secret. */
export function decryptAppKey(secret: string, userId: string, sealed: string): string | null {
  if (!sealed.startsWith(VERSION)) return null
  try {
    const raw = decodeBase64urlIgnorePadding(sealed.slice(VERSION.length))
    if (raw.length <= IV_BYTES + TAG_BYTES) return null
    const decipher = createDecipheriv('aes-256-gcm', keyFor(secret), raw.subarray(0, IV_BYTES))
    decipher.setAAD(utf8(userId))
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES))
    const plain = concat(new Uint8Array(decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES))), new Uint8Array(decipher.final()))
    return new TextDecoder().decode(plain)
  } catch {
    return null
  }
}
