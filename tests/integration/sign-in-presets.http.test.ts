// The GitHub and Google presets, configured with a made-up client: "Sign in with GitHub/Google"
// leaves for that provider's real authorization page with everything the provider needs to send
// the browser back (client id, callback, state, scopes, and for Google PKCE and a nonce), and keeps
// the sign-in's state in its signed cookie. Neither provider is reachable from here, so starting a
// sign-in must not need to ask either of them anything.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { decodeJwt } from 'jose'
import { browse, CookieJar } from '../helpers/oidc-provider'
import { startServer, type TestServer } from '../helpers/server'

const APP_URL = 'https://vibes.example'
let vibes: TestServer

beforeAll(async () => {
  vibes = await startServer({
    APP_URL,
    GITHUB_CLIENT_ID: 'github-client-id-for-tests',
    GITHUB_CLIENT_SECRET: 'github-client-secret-for-tests',
    GOOGLE_CLIENT_ID: 'google-client-id.apps.googleusercontent.com',
    GOOGLE_CLIENT_SECRET: 'google-client-secret-for-tests',
  })
})

afterAll(async () => {
  await vibes?.stop()
})

/** Starts a sign-in as the login page's button does: answers where it went and what its cookie holds. */
async function start(provider: 'github' | 'google') {
  const jar = new CookieJar()
  const answer = await browse(jar, `${vibes.url}/auth/${provider}/start`)
  expect(answer.status).toBe(302)
  const location = new URL(answer.headers.get('location') ?? '', vibes.url)
  // Not back on the login page with a reason: off to the provider.
  expect(location.origin).not.toBe(vibes.url)
  const cookieLine = answer.headers.getSetCookie().find((line) => line.startsWith('vibes_sign_in='))
  expect(cookieLine).toBeDefined()
  expect(cookieLine).toContain('HttpOnly')
  expect(cookieLine).toContain('Path=/auth')
  // https APP_URL: the cookie only ever travels over https.
  expect(cookieLine).toContain('Secure')
  const pending = decodeJwt(jar.get(vibes.url, 'vibes_sign_in') ?? '') as { provider: string; state: string; nonce: string; codeVerifier: string }
  return { location, params: location.searchParams, pending }
}

/** The S256 code challenge of a PKCE verifier (RFC 7636). */
async function challengeOf(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))
  return Buffer.from(digest).toString('base64url')
}

describe('the GitHub and Google presets', () => {
  test('the login page offers both', async () => {
    const page = await (await fetch(`${vibes.url}/login`)).text()
    expect(page).toContain('Sign in with GitHub')
    expect(page).toContain('href="/auth/github/start"')
    expect(page).toContain('Sign in with Google')
    expect(page).toContain('href="/auth/google/start"')
  })

  test('"Sign in with GitHub" goes to GitHub\'s authorization page', async () => {
    const { location, params, pending } = await start('github')
    expect(`${location.origin}${location.pathname}`).toBe('https://github.com/login/oauth/authorize')
    expect(params.get('response_type')).toBe('code')
    expect(params.get('client_id')).toBe('github-client-id-for-tests')
    expect(params.get('redirect_uri')).toBe(`${APP_URL}/auth/github/callback`)
    expect(params.get('scope')?.split(' ').sort()).toEqual(['read:user', 'user:email'])
    expect(pending.provider).toBe('github')
    expect(params.get('state')).toBe(pending.state)
    expect(pending.state.length).toBeGreaterThanOrEqual(20)
  })

  test('"Sign in with Google" goes to Google\'s authorization page, with PKCE and a nonce', async () => {
    const { location, params, pending } = await start('google')
    expect(`${location.origin}${location.pathname}`).toBe('https://accounts.google.com/o/oauth2/v2/auth')
    expect(params.get('response_type')).toBe('code')
    expect(params.get('client_id')).toBe('google-client-id.apps.googleusercontent.com')
    expect(params.get('redirect_uri')).toBe(`${APP_URL}/auth/google/callback`)
    expect(params.get('scope')?.split(' ').sort()).toEqual(['email', 'openid', 'profile'])
    expect(pending.provider).toBe('google')
    expect(params.get('state')).toBe(pending.state)
    expect(params.get('nonce')).toBe(pending.nonce)
    expect(params.get('code_challenge_method')).toBe('S256')
    expect(params.get('code_challenge')).toBe(await challengeOf(pending.codeVerifier))
  })

  test('each start is a new sign-in: a new state every time', async () => {
    const first = await start('google')
    const second = await start('google')
    expect(second.pending.state).not.toBe(first.pending.state)
    expect(second.pending.nonce).not.toBe(first.pending.nonce)
  })
})
