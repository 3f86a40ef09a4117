import { describe, expect, test } from 'bun:test'
import { ContactSchema, FolderSchema, LoginSchema, RegisterFormSchema, ResetPasswordFormSchema, SignupSchema } from '~/shared/validators'

const firstMessage = (schema: { safeParse: (v: unknown) => any }, value: unknown, field?: string) => {
  const r = schema.safeParse(value)
  if (r.success) return undefined
  const issue = field ? r.error.issues.find((i: any) => i.path[0] === field) : r.error.issues[0]
  return issue?.message
}

describe('login and register messages', () => {
  test('email rules', () => {
    expect(firstMessage(LoginSchema, { email: '', password: 'x' }, 'email')).toBe('Email is required')
    expect(firstMessage(LoginSchema, { password: 'x' }, 'email')).toBe('Email is required')
    expect(firstMessage(LoginSchema, { email: 'not-an-email', password: 'x' }, 'email')).toBe('Please enter a valid email address')
    expect(firstMessage(LoginSchema, { email: 'a b@c.de', password: 'x' }, 'email')).toBe('Please enter a valid email address')
    expect(LoginSchema.parse({ email: '  Ann@Example.COM ', password: 'x' }).email).toBe('ann@example.com')
  })

  test('password rules use the trimmed length', () => {
    expect(firstMessage(SignupSchema, { username: 'ann', email: 'a@b.co', password: '' }, 'password')).toBe('Password is required')
    expect(firstMessage(SignupSchema, { username: 'ann', email: 'a@b.co', password: '  abc   ' }, 'password')).toBe('Password must be at least 6 characters')
    expect(firstMessage(SignupSchema, { username: 'ann', email: 'a@b.co', password: 'abcdef' }, 'password')).toBeUndefined()
  })

  test('username rules', () => {
    expect(firstMessage(SignupSchema, { username: '', email: 'a@b.co', password: 'abcdef' }, 'username')).toBe('Username is required')
    expect(firstMessage(SignupSchema, { username: 'ab', email: 'a@b.co', password: 'abcdef' }, 'username')).toBe('Username must be at least 3 characters')
  })

  test('confirmation must be present and match', () => {
    const base = { username: 'ann', email: 'a@b.co', password: 'abcdef' }
    expect(firstMessage(RegisterFormSchema, { ...base, confirmPassword: '' }, 'confirmPassword')).toBe('Please confirm your password')
    expect(firstMessage(RegisterFormSchema, { ...base, confirmPassword: 'abcdeg' }, 'confirmPassword')).toBe('Passwords do not match')
    expect(RegisterFormSchema.safeParse({ ...base, confirmPassword: 'abcdef' }).success).toBe(true)
    expect(firstMessage(ResetPasswordFormSchema, { password: 'abcdef', confirmPassword: 'zzzzzz' }, 'confirmPassword')).toBe('Passwords do not match')
  })

  test('unknown fields are refused by the server schemas', () => {
    const r = SignupSchema.safeParse({ username: 'ann', email: 'a@b.co', password: 'abcdef', isAdmin: true })
    expect(r.success).toBe(false)
  })
})

describe('contact messages', () => {
  const ok = { fullName: 'Ann Lee', email: 'ann@example.com', message: 'Hello there, Vibes!' }
  test('name', () => {
    expect(firstMessage(ContactSchema, { ...ok, fullName: '' }, 'fullName')).toBe('Name is required')
    expect(firstMessage(ContactSchema, { ...ok, fullName: ' A ' }, 'fullName')).toBe('Name must be at least 2 characters')
    expect(firstMessage(ContactSchema, { ...ok, fullName: 'x'.repeat(51) }, 'fullName')).toBe('Name must be less than 50 characters')
  })
  test('message', () => {
    expect(firstMessage(ContactSchema, { ...ok, message: '' }, 'message')).toBe('Message is required')
    expect(firstMessage(ContactSchema, { ...ok, message: 'too short' }, 'message')).toBe('Message must be at least 10 characters')
    expect(firstMessage(ContactSchema, { ...ok, message: 'x'.repeat(501) }, 'message')).toBe('Message must be less than 500 characters')
    expect(ContactSchema.safeParse(ok).success).toBe(true)
  })
})

describe('folder dialog messages', () => {
  test('name and path are required', () => {
    expect(firstMessage(FolderSchema, { label: ' ', path: '/music' }, 'label')).toBe('Folder name is required')
    expect(firstMessage(FolderSchema, { label: 'Jazz', path: '' }, 'path')).toBe('Folder path is required')
  })
  test('a path is a URL or an absolute path without tricks', () => {
    expect(firstMessage(FolderSchema, { label: 'a', path: 'http://' }, 'path')).toBe('Please enter a valid URL')
    expect(firstMessage(FolderSchema, { label: 'a', path: 'httpfoo' }, 'path')).toBe('Please enter a valid URL')
    expect(firstMessage(FolderSchema, { label: 'a', path: '/music/../etc' }, 'path')).toBe('Invalid path format')
    expect(firstMessage(FolderSchema, { label: 'a', path: '/music/<x>' }, 'path')).toBe('Invalid path format')
    expect(firstMessage(FolderSchema, { label: 'a', path: 'music/jazz' }, 'path')).toBe('Path must be a URL or absolute path')
    expect(firstMessage(FolderSchema, { label: 'a\u0000', path: '/m' }, 'label')).toBe('Folder name must not contain control characters')
    expect(firstMessage(FolderSchema, { label: 'a', path: '/music/a\nb' }, 'path')).toBe('Invalid path format')
    expect(firstMessage(FolderSchema, { label: 'a', path: 'http://exa\tmple.com/' }, 'path')).toBe('Please enter a valid URL')
    expect(firstMessage(FolderSchema, { label: 'x'.repeat(10_000), path: '/m' }, 'label')).toBe('Folder name must be at most 100 characters')
    expect(FolderSchema.parse({ label: ' Jazz ', path: ' /music/jazz ' })).toEqual({ label: 'Jazz', path: '/music/jazz' })
    expect(FolderSchema.safeParse({ label: 'Radio', path: 'https://example.com/music/' }).success).toBe(true)
  })
})
