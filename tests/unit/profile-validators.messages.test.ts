// The /profile forms and procedures share these schemas: the registration rules for new values,
// a required current password, and a confirmation that must match the new password.
import { describe, expect, test } from 'bun:test'
import {
  ChangeEmailSchema,
  ChangePasswordFormSchema,
  ChangePasswordSchema,
  ChangeUsernameSchema,
  DeleteAccountSchema,
  SessionIdSchema,
} from '~/shared/validators'

const messages = (schema: { safeParse: (v: unknown) => any }, value: unknown) => {
  const r = schema.safeParse(value)
  return r.success ? [] : r.error.issues.map((i: any) => `${i.path.join('.')}: ${i.message}`)
}

describe('profile messages', () => {
  test('the current password is required everywhere, as text', () => {
    expect(messages(DeleteAccountSchema, {})).toEqual(['currentPassword: Current password is required'])
    expect(messages(DeleteAccountSchema, { currentPassword: '' })).toEqual(['currentPassword: Current password is required'])
    expect(messages(DeleteAccountSchema, { currentPassword: 42 })).toEqual(['currentPassword: Current password must be text'])
    expect(messages(ChangeUsernameSchema, { username: 'ann' })).toEqual(['currentPassword: Current password is required'])
  })

  test('new values follow the registration rules', () => {
    expect(messages(ChangeUsernameSchema, { username: 'ab', currentPassword: 'x' })).toEqual(['username: Username must be at least 3 characters'])
    expect(messages(ChangeEmailSchema, { email: 'nope', currentPassword: 'x' })).toEqual(['email: Please enter a valid email address'])
    expect(ChangeEmailSchema.parse({ email: ' Ann@Example.COM ', currentPassword: 'x' }).email).toBe('ann@example.com')
    expect(messages(ChangePasswordSchema, { currentPassword: 'x', newPassword: '  abc  ' })).toEqual(['newPassword: Password must be at least 6 characters'])
    expect(messages(ChangePasswordSchema, { currentPassword: 'x', newPassword: 'abcdef', isAdmin: true })).toEqual([': Unrecognized key: "isAdmin"'])
  })

  test('the password form needs a matching confirmation', () => {
    expect(messages(ChangePasswordFormSchema, { currentPassword: 'x', newPassword: 'abcdef', confirmPassword: 'abcdeg' })).toEqual([
      'confirmPassword: Passwords do not match',
    ])
    expect(messages(ChangePasswordFormSchema, { currentPassword: 'x', newPassword: 'abcdef', confirmPassword: '' })).toContain(
      'confirmPassword: Please confirm your password',
    )
    expect(messages(ChangePasswordFormSchema, { currentPassword: 'x', newPassword: 'abcdef', confirmPassword: 'abcdef' })).toEqual([])
  })

  test('a session id is 1–128 characters', () => {
    expect(messages(SessionIdSchema, { id: '' })).toEqual(['id: Session id is required'])
    expect(messages(SessionIdSchema, { id: 'x'.repeat(129) })).toEqual(['id: Session id must be at most 128 characters'])
  })
})
