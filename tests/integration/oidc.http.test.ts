// Sign-in with an OpenID Connect provider, end to end over HTTP against a real provider
// (oidc-provider on loopback): the browser's part is played by fetch with a cookie jar, following
// each redirect by hand and submitting the provider's own login and consent forms.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { adminEnv, createMember } from '../helpers/api'
import { browse, CookieJar, type Person, signInAtProvider, signInEnv, startProvider, type TestProvider } from '../helpers/oidc-provider'
import { sqlOn } from '../helpers/engine'
import { startServer, type TestServer } from '../helpers/server'

const PEOPLE: Person[] = [
  { login: 'ann', email: 'ann@oidc.test', emailVerified: true },
  { login: 'boss', email: 'boss@oidc.test', emailVerified: true, groups: ['staff', 'vibes-admins'] },
  { login: 'carol', email: 'carol@oidc.test', emailVerified: true },
  { login: 'dave', email: 'dave@oidc.test', emailVerified: false },
  { login: 'eve', email: 'eve@oidc.test', emailVerified: true },
]

let provider: TestProvider
let vibes: TestServer

function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
  const port = probe.port ?? 0
  probe.stop(true)
  return port
}

beforeAll(async () => {
  const port = freePort()
  const appUrl = `http://127.0.0.1:${port}`
  provider = await startProvider(`${appUrl}/auth/oidc/callback`, PEOPLE)
  vibes = await startServer({
    ...adminEnv,
    PORT: String(port),
    ...signInEnv(provider, appUrl),
    OIDC_ADMIN_GROUP: 'vibes-admins',
  })
})

afterAll(async () => {
  await vibes?.stop()
  await provider?.stop()
})

/** Every account on the server, read from its database (either engine). */
function members() {
  return sqlOn<{ username: string; email: string; isAdmin: number }>(
    vibes,
    'SELECT username, email, CASE WHEN is_admin THEN 1 ELSE 0 END AS "isAdmin" FROM users ORDER BY id',
  )
}

/** Start at Vibes' button, sign in at the provider; answers the jar and the (not yet visited) callback URL. */
async function toCallback(login: string) {
  const jar = new CookieJar()
  const start = await browse(jar, `${vibes.url}/auth/oidc/start`)
  expect(start.status).toBe(302)
  const authorization = start.headers.get('location') ?? ''
  expect(authorization.startsWith(provider.issuer)).toBe(true)
  const params = new URL(authorization).searchParams
  expect(params.get('code_challenge_method')).toBe('S256')
  expect(params.get('state')).toBeTruthy()
  expect(params.get('nonce')).toBeTruthy()
  const callback = await signInAtProvider(jar, authorization, login)
  expect(callback.startsWith(`${vibes.url}/auth/oidc/callback?`)).toBe(true)
  return { jar, callback }
}

async function whoAmI(jar: CookieJar) {
  const answer = await browse(jar, `${vibes.url}/api/auth/session`)
  return answer.status === 200 ? ((await answer.json()) as { data: { user: { username: string; email: string; isAdmin: boolean } } }).data.user : null
}

/** The message the login page shows for where a refused sign-in left the browser. */
async function loginPageSays(jar: CookieJar, location: string): Promise<string> {
  const page = await browse(jar, new URL(location, vibes.url).toString())
  expect(page.status).toBe(200)
  return page.text()
}

describe('OpenID Connect sign-in', () => {
  test('the login page shows the provider button', async () => {
    const page = await (await fetch(`${vibes.url}/login`)).text()
    expect(page).toContain('Sign in with Test SSO')
    expect(page).toContain('href="/auth/oidc/start"')
    // The spec's strings stay.
    expect(page).toContain('Welcome back')
    expect(page).toContain('Forgot your password?')
  })

  test('a first sign-in creates the member and signs them in', async () => {
    const { jar, callback } = await toCallback('ann')
    const back = await browse(jar, callback)
    expect(back.status).toBe(302)
    expect(back.headers.get('location')).toBe('/')
    const me = await whoAmI(jar)
    expect(me).toMatchObject({ email: 'ann@oidc.test', username: 'ann', isAdmin: false })
    // The next sign-in opens the same member, making no other.
    const count = (await members()).length
    const again = await toCallback('ann')
    expect((await browse(again.jar, again.callback)).status).toBe(302)
    expect((await whoAmI(again.jar))?.email).toBe('ann@oidc.test')
    expect((await members()).length).toBe(count)
  })

  test('a member of the admin group becomes an admin', async () => {
    const { jar, callback } = await toCallback('boss')
    const back = await browse(jar, callback)
    expect(back.headers.get('location')).toBe('/admin')
    expect(await whoAmI(jar)).toMatchObject({ email: 'boss@oidc.test', isAdmin: true })
    // Taken out of the group at the provider: the next sign-in takes admin away.
    provider.people.set('boss', { ...PEOPLE[1], groups: ['staff'] })
    const later = await toCallback('boss')
    await browse(later.jar, later.callback)
    expect(await whoAmI(later.jar)).toMatchObject({ email: 'boss@oidc.test', isAdmin: false })
    // And the session made while an admin no longer counts.
    expect(await whoAmI(jar)).toBeNull()
  })

  test('an existing account with the verified e-mail is linked only after its password', async () => {
    const carol = await createMember(vibes.url, { username: 'carol-local', email: 'carol@oidc.test', password: 'carols-own-password' })
    const count = (await members()).length
    const { jar, callback } = await toCallback('carol')
    const back = await browse(jar, callback)
    expect(back.status).toBe(302)
    expect(back.headers.get('location')).toBe('/login?linkWith=oidc')
    expect(await whoAmI(jar)).toBeNull()
    expect(await loginPageSays(jar, '/login?linkWith=oidc')).toContain('Link and sign in')

    const post = (password: string) =>
      browse(jar, `${vibes.url}/auth/link`, {
        method: 'POST',
        body: new URLSearchParams({ password }),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      })
    const wrong = await post('not-carols-password')
    expect(wrong.status).toBe(303)
    expect(wrong.headers.get('location')).toBe('/login?signInError=link-password&linkWith=oidc')
    expect(await loginPageSays(jar, wrong.headers.get('location') ?? '')).toContain('Incorrect password: the accounts were not linked.')
    expect(await whoAmI(jar)).toBeNull()

    const right = await post('carols-own-password')
    expect(right.status).toBe(303)
    expect(await whoAmI(jar)).toMatchObject({ email: 'carol@oidc.test', username: 'carol-local' })
    expect((await members()).length).toBe(count)
    // From now on the provider opens carol's account at once.
    const next = await toCallback('carol')
    expect((await browse(next.jar, next.callback)).headers.get('location')).toBe('/')
    expect((await whoAmI(next.jar))?.username).toBe(carol.username)
  })

  test('an unverified e-mail is refused: no account is made or taken over', async () => {
    const before = await members()
    const { jar, callback } = await toCallback('dave')
    const back = await browse(jar, callback)
    expect(back.headers.get('location')).toBe('/login?signInError=unverified-email')
    expect(await loginPageSays(jar, back.headers.get('location') ?? '')).toContain('the sign-in provider has not verified your e-mail address')
    expect(await whoAmI(jar)).toBeNull()
    expect(await members()).toEqual(before)
  })

  test('an unverified e-mail never links to the account that has it', async () => {
    await createMember(vibes.url, { email: 'dave@oidc.test', password: 'daves-own-password' })
    const { jar, callback } = await toCallback('dave')
    const back = await browse(jar, callback)
    expect(back.headers.get('location')).toBe('/login?signInError=unverified-email')
    expect(await whoAmI(jar)).toBeNull()
  })

  test('a wrong state is refused', async () => {
    const before = await members()
    const { jar, callback } = await toCallback('eve')
    const forged = new URL(callback)
    forged.searchParams.set('state', 'not-the-state-this-browser-sent')
    const back = await browse(jar, forged.toString())
    expect(back.headers.get('location')).toBe('/login?signInError=state')
    expect(await loginPageSays(jar, back.headers.get('location') ?? '')).toContain('did not match this browser’s sign-in')
    expect(await whoAmI(jar)).toBeNull()
    expect(await members()).toEqual(before)
  })

  test('a callback without the sign-in cookie (another browser) is refused', async () => {
    const { callback } = await toCallback('eve')
    const back = await browse(new CookieJar(), callback)
    expect(back.headers.get('location')).toBe('/login?signInError=state')
  })

  test('a replayed code is refused', async () => {
    const { jar, callback } = await toCallback('ann')
    const pending = jar.get(vibes.url, 'vibes_sign_in') ?? ''
    expect((await browse(jar, callback)).headers.get('location')).toBe('/')
    // The same answer again, with the same sign-in cookie: the provider refuses the spent code.
    const replay = new CookieJar()
    replay.set(vibes.url, 'vibes_sign_in', pending)
    const back = await browse(replay, callback)
    expect(back.headers.get('location')).toBe('/login?signInError=code')
    expect(await loginPageSays(replay, back.headers.get('location') ?? '')).toContain('refused the sign-in code')
    expect(await whoAmI(replay)).toBeNull()
  })

  describe('ID tokens that must not count', () => {
    const cases: [string, TestProvider['doctor']][] = [
      ['signed with a key the provider does not publish', { signWithOtherKey: true }],
      ['for another audience', { claims: (c) => ({ ...c, aud: 'some-other-client' }) }],
      ['expired', { claims: (c) => ({ ...c, iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 }) }],
      ['from another issuer', { claims: (c) => ({ ...c, iss: 'https://impostor.example' }) }],
      ['for another sign-in (nonce)', { claims: (c) => ({ ...c, nonce: 'a-nonce-from-elsewhere' }) }],
    ]
    test('control: an ID token re-signed unchanged by the provider key still signs in (only the flaw under test refuses)', async () => {
      const { jar, callback } = await toCallback('ann')
      provider.doctor = { claims: (c) => c }
      try {
        expect((await browse(jar, callback)).headers.get('location')).toBe('/')
      } finally {
        provider.doctor = null
      }
      expect((await whoAmI(jar))?.email).toBe('ann@oidc.test')
    })

    for (const [name, doctor] of cases) {
      test(`an ID token ${name} is refused`, async () => {
        const before = await members()
        const { jar, callback } = await toCallback('eve')
        provider.doctor = doctor
        try {
          const back = await browse(jar, callback)
          expect(back.status).toBe(302)
          expect(back.headers.get('location')).toBe('/login?signInError=token')
          expect(await loginPageSays(jar, back.headers.get('location') ?? '')).toContain('could not be verified')
        } finally {
          provider.doctor = null
        }
        expect(await whoAmI(jar)).toBeNull()
        expect(await members()).toEqual(before)
      })
    }
  })

  test('the callback never answers 5xx or a stack trace, whatever comes in', async () => {
    for (const query of ['', '?code=x', '?state=x', '?error=access_denied&state=x', '?code=%ZZ&state=%ZZ']) {
      const answer = await browse(new CookieJar(), `${vibes.url}/auth/oidc/callback${query}`)
      expect(answer.status).toBe(302)
      expect(answer.headers.get('location')).toStartWith('/login')
    }
    const link = await browse(new CookieJar(), `${vibes.url}/auth/link`, {
      method: 'POST',
      body: 'password=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(link.status).toBe(303)
    expect(link.headers.get('location')).toBe('/login?signInError=link-expired')
  })
})
