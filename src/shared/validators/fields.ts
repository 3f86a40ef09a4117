// Field rules shared by every form and every procedure input, each failure with the product's fixed message.
import { z } from 'zod'

/** A string field whose absence, wrong type or blank value all read as `required`. */
export function requiredText(required: string, label: string) {
  return z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? required : `${label} must be text`) })
    .trim()
    .min(1, required)
}

// A standard address: something@domain.tld, no spaces.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export const emailField = requiredText('Email is required', 'Email')
  .max(254, 'Email must be at most 254 characters')
  .regex(EMAIL_PATTERN, 'Please enter a valid email address')
  .transform((e) => e.toLowerCase())

export const passwordField = z
  .string({ error: (issue) => (issue.input === undefined || issue.input === null ? 'Password is required' : 'Password must be text') })
  .refine((p) => p.trim().length > 0, 'Password is required')
  .refine((p) => p.length === 0 || p.trim().length >= 6, 'Password must be at least 6 characters')
  .refine((p) => p.length <= 128, 'Password must be at most 128 characters')

export const COMMON_PASSWORD_MESSAGE = 'This password is one of the most common passwords and easy to guess. Please choose another'

/**
 * A new password (sign-up, reset, change): the rules above, and not one of the passwords people
 * use most. The list (~49,000 passwords, ~0.5 MB) lives on the server only, which passes its
 * check in here (src/server/auth/common-passwords.ts); forms validate with `passwordField` and
 * learn about a common password from the server's answer.
 */
export function newPasswordField(isCommon: (password: string) => boolean) {
  return passwordField.refine((p) => p.trim().length < 6 || p.length > 128 || !isCommon(p), COMMON_PASSWORD_MESSAGE)
}

export const usernameField = requiredText('Username is required', 'Username')
  .min(3, 'Username must be at least 3 characters')
  .max(32, 'Username must be at most 32 characters')
  .regex(/^[\p{L}\p{N}_.\- ]+$/u, 'Username may use letters, digits, spaces, dots, dashes and underscores')

/** The current password that confirms a change to the account (never checked for strength). */
export const currentPasswordField = z
  .string({ error: (i) => (i.input === undefined || i.input === null ? 'Current password is required' : 'Current password must be text') })
  .min(1, 'Current password is required')
  .max(128, 'Current password must be at most 128 characters')
