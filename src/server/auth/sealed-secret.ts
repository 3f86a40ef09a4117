// Secrets the server must read back later, kept sealed so the database alone gives none away: app
// keys (token login checks md5(key + salt)) and scrobbling tokens and session keys (sent to
// ListenBrainz and Last.fm). AES-256-GCM with a key derived by HKDF-SHA256 from AUTH_SECRET and a
// label of the secret's purpose: never stored, the same after a restart, one key per purpose, and
// changing AUTH_SECRET makes the sealed secrets unreadable (the member connects or makes a key
// again). The owning member's id is the additional data: a ciphertext copied onto another member's
// row does not open. Stored as `v1.` + base64url(iv ‖ ciphertext ‖ tag).
// Never the account password, which stays an argon2id hash.
import { createCipheriv, createDecipheriv, hkdfSync } from 'node:crypto'
import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from '@oslojs/encoding'

/** What a sealed secret is for; each purpose has its own derived key. */
export const SEAL_PURPOSE = {
  appKey: 'vibes app-key encryption v1',
  scrobbling: 'vibes scrobbling-credential encryption v1',
} as const
export type SealPurpose = (typeof SEAL_PURPOSE)[keyof typeof SEAL_PURPOSE]

const VERSION = 'v1.'
const IV_BYTES = 12
const TAG_BYTES = 16
const derived = new Map<string, Uint8Array>()
const utf8 = (s: string) => new TextEncoder().encode(s)

function keyFor(secret: string, purpose: SealPurpose): Uint8Array {
  const id = `${purpose}\n${secret}`
  let key = derived.get(id)
  if (!key) {
    key = new Uint8Array(hkdfSync('sha256', secret, '', purpose, 32))
    derived.set(id, key)
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

export function sealSecret(secret: string, purpose: SealPurpose, ownerId: string, plain: string): string {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES))
  const cipher = createCipheriv('aes-256-gcm', keyFor(secret, purpose), iv)
  cipher.setAAD(utf8(ownerId))
  const body = concat(new Uint8Array(cipher.update(utf8(plain))), new Uint8Array(cipher.final()))
  return VERSION + encodeBase64urlNoPadding(concat(iv, body, new Uint8Array(cipher.getAuthTag())))
}

/** The secret, or null when the text was not sealed for this owner and purpose with this secret. */
export function openSecret(secret: string, purpose: SealPurpose, ownerId: string, sealed: string): string | null {
  if (!sealed.startsWith(VERSION)) return null
  try {
    const raw = decodeBase64urlIgnorePadding(sealed.slice(VERSION.length))
    if (raw.length <= IV_BYTES + TAG_BYTES) return null
    const decipher = createDecipheriv('aes-256-gcm', keyFor(secret, purpose), raw.subarray(0, IV_BYTES))
    decipher.setAAD(utf8(ownerId))
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES))
    const plain = concat(new Uint8Array(decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES))), new Uint8Array(decipher.final()))
    return new TextDecoder().decode(plain)
  } catch {
    return null
  }
}

export const encryptAppKey = (secret: string, userId: string, appKey: string) => sealSecret(secret, SEAL_PURPOSE.appKey, userId, appKey)
export const decryptAppKey = (secret: string, userId: string, sealed: string) => openSecret(secret, SEAL_PURPOSE.appKey, userId, sealed)
