// The configuration parser (src/server/config-env.ts parseEnv): a bad value is one line naming the
// variable and never the value of a secret; TRUST_PROXY's forms; --help lists every variable.
import { describe, expect, test } from 'bun:test'
import { CONFIG_VARIABLES } from '~/server/config-variables'
import { parseEnv, SCHEMA_VARIABLES } from '~/server/config-env'

const errorOf = (env: Record<string, string>) => {
  const result = parseEnv(env)
  if (!('error' in result)) throw new Error(`expected an error for ${JSON.stringify(env)}`)
  return result.error
}
const envOf = (env: Record<string, string>) => {
  const result = parseEnv(env)
  if ('error' in result) throw new Error(result.error)
  return result.env
}

describe('bad values', () => {
  test('name the variable and show a non-secret value', () => {
    expect(errorOf({ PORT: 'eighty' })).toStartWith('Invalid configuration: PORT ')
    expect(errorOf({ PORT: 'eighty' })).toContain('"eighty"')
    expect(errorOf({ REMOTE_ALLOW_PRIVATE: 'maybe' })).toStartWith('Invalid configuration: REMOTE_ALLOW_PRIVATE ')
    expect(errorOf({ SHUTDOWN_GRACE_SECONDS: '-1' })).toStartWith('Invalid configuration: SHUTDOWN_GRACE_SECONDS ')
    expect(errorOf({ DEFAULT_COUNTRY: 'Cyprus' })).toStartWith('Invalid configuration: DEFAULT_COUNTRY ')
  })

  test('never print the value of AUTH_SECRET, ADMIN_PASSWORD or SMTP_URL', () => {
    const secrets: [string, string][] = [
      ['AUTH_SECRET', 'hunter2-too-short'],
      ['ADMIN_PASSWORD', 'pw1'],
      ['SMTP_URL', 'http://mailer:s3cr3t-p4ss@mail.example.com'],
      ['SMTP_URL', 'not a url with s3cr3t inside'],
    ]
    for (const [name, value] of secrets) {
      const line = errorOf({ [name]: value })
      expect(line).toStartWith(`Invalid configuration: ${name} `)
      expect(line).toContain('(value hidden)')
      expect(line).not.toContain(value)
      for (const part of value.split(/[^A-Za-z0-9]+/).filter((p) => p.length >= 3)) expect(line).not.toContain(part)
    }
  })

  test('an empty value counts as unset', () => {
    expect(envOf({ PORT: '', TRUST_PROXY: '' })).toMatchObject({ PORT: 3000, TRUST_PROXY: { kind: 'none' } })
  })
})

describe('TRUST_PROXY', () => {
  test('false, true, a hop count and a CIDR list', () => {
    expect(envOf({}).TRUST_PROXY).toEqual({ kind: 'none' })
    for (const v of ['false', 'off', '0', 'no']) expect(envOf({ TRUST_PROXY: v }).TRUST_PROXY).toEqual({ kind: 'none' })
    for (const v of ['true', 'TRUE', 'on', 'yes']) expect(envOf({ TRUST_PROXY: v }).TRUST_PROXY).toEqual({ kind: 'hops', hops: 1 })
    expect(envOf({ TRUST_PROXY: '3' }).TRUST_PROXY).toEqual({ kind: 'hops', hops: 3 })
    const cidrs = envOf({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7 ,fd00::/8' }).TRUST_PROXY
    expect(cidrs.kind).toBe('cidrs')
    if (cidrs.kind !== 'cidrs') return
    expect(cidrs.ranges.map(([addr, bits]) => `${addr.toString()}/${bits}`)).toEqual(['10.0.0.0/8', '192.168.1.7/32', 'fd00::/8'])
  })

  test('garbage is refused with the variable named', () => {
    // Shorthand IPv4 forms (inet_aton: '010.1.1.1' is 8.1.1.1, '0x7f.1' is 127.0.0.1) would trust
    // an address the operator did not mean: only dotted-quad IPv4 and standard IPv6 are read.
    for (const v of ['maybe', '10.0.0.0/99', '999', ',', 'proxy.example.com', '1.2.3', '0x7f.1', '010.1.1.1', '10.1/8']) {
      expect(errorOf({ TRUST_PROXY: v })).toStartWith('Invalid configuration: TRUST_PROXY ')
    }
  })
})

test('--help lists exactly the variables the schema reads', () => {
  expect(CONFIG_VARIABLES.map(([name]): string => name).sort()).toEqual([...SCHEMA_VARIABLES].sort())
})

describe('sign-in settings', () => {
  test('a provider needs its whole set of variables, and the error hides no secret', () => {
    expect(errorOf({ OIDC_ISSUER_URL: 'https://sso.example', OIDC_CLIENT_ID: 'vibes' })).toStartWith('Invalid configuration: OIDC_CLIENT_SECRET is required')
    expect(errorOf({ OIDC_CLIENT_SECRET: 'sssh-secret' })).not.toContain('sssh-secret')
    expect(errorOf({ GITHUB_CLIENT_ID: 'abc' })).toStartWith('Invalid configuration: GITHUB_CLIENT_SECRET ')
    expect(errorOf({ GOOGLE_CLIENT_SECRET: 'sssh-secret' })).toStartWith('Invalid configuration: GOOGLE_CLIENT_ID ')
    expect(errorOf({ GOOGLE_CLIENT_SECRET: 'sssh-secret', GOOGLE_CLIENT_ID: 'x', OIDC_CLIENT_SECRET: 'sssh' })).not.toContain('sssh')
    const env = envOf({ OIDC_ISSUER_URL: 'https://sso.example', OIDC_CLIENT_ID: 'vibes', OIDC_CLIENT_SECRET: 's' })
    expect(env.OIDC_NAME).toBe('Single sign-on')
    expect(env.OIDC_GROUPS_CLAIM).toBe('groups')
  })

  test('LOCAL_LOGIN is on unless turned off', () => {
    expect(envOf({}).LOCAL_LOGIN).toBe(true)
    expect(envOf({ LOCAL_LOGIN: 'off' }).LOCAL_LOGIN).toBe(false)
  })

  test('AUTH_PROXY_HEADER is a header name and needs TRUST_PROXY', () => {
    expect(errorOf({ AUTH_PROXY_HEADER: 'Remote-User' })).toStartWith('Invalid configuration: TRUST_PROXY must name the proxy')
    expect(errorOf({ AUTH_PROXY_HEADER: 'Remote User:', TRUST_PROXY: '10.0.0.1' })).toStartWith('Invalid configuration: AUTH_PROXY_HEADER ')
    expect(envOf({ AUTH_PROXY_HEADER: 'Remote-User', TRUST_PROXY: '10.0.0.1' }).AUTH_PROXY_HEADER).toBe('remote-user')
  })
})
