// A configuration error names the variable and the problem; for secrets it never shows the value
// (an operator pastes that line into a ticket or a chat).
import { expect, test } from 'bun:test'
import { configErrorLine, parseEnv } from '~/server/config-env'

const errorOf = (env: Record<string, string>) => {
  const result = parseEnv(env)
  if (!('error' in result)) throw new Error(`expected a configuration error for ${JSON.stringify(env)}`)
  return result.error
}

test.each([
  ['AUTH_SECRET', 'short-but-real-secret-9c1e', 'must be at least 32 characters'],
  ['ADMIN_PASSWORD', 'pw9c1', 'must be at least 6 characters'],
  ['SMTP_URL', 'ftp://mailer:hunter2-9c1e@mail.example.com', ''],
])('a bad %s is named, its value hidden', (name, value, message) => {
  const line = errorOf({ [name]: value })
  expect(line).toStartWith(`Invalid configuration: ${name} `)
  expect(line).toContain(message)
  expect(line).toEndWith('(value hidden)')
  expect(line).not.toContain(value)
  expect(line).not.toContain('hunter2')
})

test('a bad value that is not a secret is shown, so the operator sees the typo', () => {
  const line = errorOf({ PORT: 'eighty' })
  expect(line).toStartWith('Invalid configuration: PORT ')
  expect(line).toEndWith('(got "eighty")')
})

test('configErrorLine hides every secret whatever the message', () => {
  for (const name of ['AUTH_SECRET', 'ADMIN_PASSWORD', 'SMTP_URL'])
    expect(configErrorLine(name, 'is wrong', 'smtp://u:p4ss@h')).toBe(`Invalid configuration: ${name} is wrong (value hidden)`)
})
