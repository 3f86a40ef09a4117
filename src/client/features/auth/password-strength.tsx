// A small, honest hint under a new password (sign-up, reset, change): how strong it looks from its
// length and the kinds of characters in it, said in words (the bar is decoration) in a polite live
// region, so a screen reader hears the level change without being interrupted. It cannot know
// whether a password is one people use most: that list (~49,000 passwords) stays on the server,
// which refuses such a password; once it has, the hint says "Too common" for that password.
import { useState } from 'react'
import { css, cx } from 'styled-system/css'
import { errorMessage } from '~/client/global-errors'
import { COMMON_PASSWORD_MESSAGE } from '~/shared/validators/fields'

export type Strength = 'too-short' | 'weak' | 'fair' | 'strong'

/** Length first (the longest passwords are the hardest to guess), then the kinds of characters. */
export function passwordStrength(password: string): Strength {
  const length = [...password.trim()].length
  if (length < 6) return 'too-short'
  const kinds = [/\p{Ll}/u, /\p{Lu}/u, /\p{N}/u, /[^\p{L}\p{N}]/u].filter((re) => re.test(password)).length
  const distinct = new Set(password.toLowerCase()).size
  if (length < 8 || distinct < 4 || (kinds === 1 && length < 12)) return 'weak'
  if (length >= 16 || (length >= 12 && kinds >= 3)) return 'strong'
  return 'fair'
}

const low = css({ color: 'danger.fg' })
const WORDS: Record<Strength | 'common', { label: string; advice: string; filled: number; tone: string }> = {
  'too-short': { label: 'Too short', advice: 'use at least 6 characters', filled: 0, tone: low },
  weak: { label: 'Weak', advice: 'make it longer, or mix letters, digits and symbols', filled: 1, tone: low },
  fair: { label: 'Fair', advice: 'a few more characters make it strong', filled: 2, tone: css({ color: 'warning.fg' }) },
  strong: { label: 'Strong', advice: '', filled: 3, tone: css({ color: 'success.fg' }) },
  common: { label: 'Too common', advice: 'people use this password a lot; choose another', filled: 0, tone: low },
}

/** The password the server refused as too common, so the hint can say so while it is still typed. */
export function useCommonPassword() {
  const [refused, setRefused] = useState<string | null>(null)
  return {
    refused,
    /** Call with a failed save's error and the password it sent. */
    note: (error: unknown, password: string) => setRefused(errorMessage(error, '') === COMMON_PASSWORD_MESSAGE ? password : null),
  }
}

export function PasswordStrength({ password, refused }: { password: string; refused: string | null }) {
  const level = password === '' ? null : refused !== null && password === refused ? 'common' : passwordStrength(password)
  const words = level && WORDS[level]
  return (
    <div data-testid="password-strength" aria-live="polite" className={css({ display: 'flex', flexDirection: 'column', gap: '1', mt: '-1', minH: '5' })}>
      {words && (
        <>
          <span aria-hidden className={cx(css({ display: 'grid', gridTemplateColumns: 'repeat(3, 1fr)', gap: '1' }), words.tone)}>
            {[1, 2, 3].map((n) => (
              <span key={n} className={cx(css({ h: '1', borderRadius: 'full', bg: 'bg.muted' }), n <= words.filled && css({ bg: 'currentColor' }))} />
            ))}
          </span>
          <p className={css({ fontSize: 'xs', color: 'fg.muted' })}>
            <span className={cx(css({ fontWeight: 'semibold' }), words.tone)}>Strength: {words.label}</span>
            {words.advice && ` — ${words.advice}`}
          </p>
        </>
      )}
    </div>
  )
}
