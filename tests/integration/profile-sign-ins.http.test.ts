// A member's linked sign-ins on /profile, over HTTP against a real OpenID Connect provider
// (oidc-provider on loopback): the list, unlinking, the refusal to unlink the last way in (no
// password, or members' passwords turned off), and another member's link staying out of reach.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ADMIN, adminEnv, api, createMember } from '../helpers/api'
import { sqlOn } from '../helpers/engine'
import { browse, CookieJar, type Person, signInAtProvider, signInEnv, startProvider, type TestProvider } from '../helpers/oidc-provider'
import { startServer, type TestServer } from '../helpers/server'
import { startSmtp } from '../helpers/smtp'

const NO_PASSWORD_REFUSAL =
  'This is your only way to sign in: your account has no password. Set one first (“Forgot your password?” on the login page), then unlink this.'
const PASSWORDS_OFF_REFUSAL = 'This is your only way to sign in: password sign-in is turned off here. Link another provider first, then unlink this.'

type LinkedSignIn = { provider: string; providerName: string; subject: string; email: string | null; linkedAt: string; unlinkRefusal: string | null }

function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
  const port = probe.port ?? 0
  probe.stop(true)
  return port
}

/** A Vibes with its own provider (each provider knows one callback address). */
async function vibesWithProvider(people: Person[], env: Record<string, string>) {
  const port = freePort()
  const appUrl = `http://127.0.0.1:${port}`
  const provider = await startProvider(`${appUrl}/auth/oidc/callback`, people)
  const vibes = await startServer({
    ...adminEnv,
    ...env,
    PORT: String(port),
    ...signInEnv(provider, appUrl),
  })
  return { provider, vibes }
}

/** A browser that signs in at the provider as `login`: answers its jar and where Vibes sent it. */
async function signIn(vibes: TestServer, login: string) {
  const jar = new CookieJar()
  const start = await browse(jar, `${vibes.url}/auth/oidc/start`)
  const callback = await signInAtProvider(jar, start.headers.get('location') ?? '', login)
  const back = await browse(jar, callback)
  return { jar, location: back.headers.get('location') }
}

/** Signs in as `login`, confirming with `password` when Vibes asks to link an existing account. */
async function signInLinking(vibes: TestServer, login: string, password?: string) {
  const { jar, location } = await signIn(vibes, login)
  if (location === '/login?linkWith=oidc') {
    const linked = await browse(jar, `${vibes.url}/auth/link`, {
      method: 'POST',
      body: new URLSearchParams({ password: password ?? '' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(linked.status).toBe(303)
  }
  expect((await whoAmI(vibes, jar))?.email).toBeTruthy()
  return jar
}

async function whoAmI(vibes: TestServer, jar: CookieJar) {
  const answer = await browse(jar, `${vibes.url}/api/auth/session`)
  return answer.status === 200 ? ((await answer.json()) as { data: { user: { username: string; email: string } } }).data.user : null
}

/** A REST call as the page makes it: the session cookie, and the XSRF header a cookie-only change needs. */
async function call<T>(vibes: TestServer, jar: CookieJar, method: string, path: string): Promise<{ status: number; body: { data: T; error?: string } }> {
  const headers = { 'x-xsrf-token': jar.get(vibes.url, 'XSRF-TOKEN') ?? '' }
  const answer = await browse(jar, `${vibes.url}/api${path}`, { method, headers })
  return { status: answer.status, body: (await answer.json()) as { data: T; error?: string } }
}

const list = (vibes: TestServer, jar: CookieJar) => call<{ signIns: LinkedSignIn[]; hasPassword: boolean }>(vibes, jar, 'GET', '/user/sign-ins')
const unlink = (vibes: TestServer, jar: CookieJar, provider: string, subject: string) =>
  call<{ provider: string; unlinked: true }>(vibes, jar, 'DELETE', `/user/sign-ins/${encodeURIComponent(provider)}/${encodeURIComponent(subject)}`)

const linksOf = (vibes: TestServer, email: string) =>
  sqlOn<{ subject: string }>(vibes, 'SELECT i.subject FROM sign_in_identities i JOIN users u ON u.id = i.user_id WHERE u.email = ? ORDER BY i.subject', [email])

describe('linked sign-ins, members may use their passwords', () => {
  let provider: TestProvider
  let vibes: TestServer
  let smtp: Awaited<ReturnType<typeof startSmtp>>

  beforeAll(async () => {
    smtp = await startSmtp()
    ;({ provider, vibes } = await vibesWithProvider(
      [
        { login: 'pam', email: 'pam@oidc.test', emailVerified: true },
        { login: 'quinn', email: 'quinn@oidc.test', emailVerified: true },
        { login: 'rita', email: 'rita@oidc.test', emailVerified: true },
      ],
      { SMTP_URL: smtp.url },
    ))
  })

  afterAll(async () => {
    await vibes?.stop()
    await provider?.stop()
    await smtp?.close()
  })

  test('a member sees the provider account linked to them, then unlinks it; nothing else ends', async () => {
    await createMember(vibes.url, { username: 'pam-local', email: 'pam@oidc.test', password: 'pams-own-password' })
    const jar = await signInLinking(vibes, 'pam', 'pams-own-password')
    const listed = await list(vibes, jar)
    expect(listed.status).toBe(200)
    expect(listed.body.data.hasPassword).toBe(true)
    expect(listed.body.data.signIns).toEqual([
      { provider: 'oidc', providerName: 'Test SSO', subject: 'pam', email: 'pam@oidc.test', linkedAt: expect.any(String), unlinkRefusal: null },
    ])
    expect(Math.abs(Date.parse(listed.body.data.signIns[0].linkedAt) - Date.now())).toBeLessThan(10 * 60_000)

    const gone = await unlink(vibes, jar, 'oidc', 'pam')
    expect(gone.status).toBe(200)
    expect(gone.body.data).toMatchObject({ provider: 'oidc', unlinked: true })
    expect((await list(vibes, jar)).body.data.signIns).toEqual([])
    expect(await linksOf(vibes, 'pam@oidc.test')).toEqual([])
    // The session that unlinked stays signed in, and the password still works.
    expect((await whoAmI(vibes, jar))?.username).toBe('pam-local')
    expect((await api(vibes.url, 'POST', '/auth/login', { body: { email: 'pam@oidc.test', password: 'pams-own-password' } })).status).toBe(200)
    // The provider no longer opens the account by itself: signing in with it asks for the password again.
    expect((await signIn(vibes, 'pam')).location).toBe('/login?linkWith=oidc')
    // Unlinked twice: not found.
    expect(await unlink(vibes, jar, 'oidc', 'pam')).toMatchObject({ status: 404, body: { success: false, error: 'Linked sign-in not found' } })
  })

  test('a member made at the first sign-in has no password: their only link cannot be unlinked, until they set one', async () => {
    const { jar, location } = await signIn(vibes, 'quinn')
    expect(location).toBe('/')
    const listed = await list(vibes, jar)
    expect(listed.body.data.hasPassword).toBe(false)
    expect(listed.body.data.signIns).toEqual([
      {
        provider: 'oidc',
        providerName: 'Test SSO',
        subject: 'quinn',
        email: 'quinn@oidc.test',
        linkedAt: expect.any(String),
        unlinkRefusal: NO_PASSWORD_REFUSAL,
      },
    ])
    const refused = await unlink(vibes, jar, 'oidc', 'quinn')
    expect(refused.status).toBe(409)
    expect(refused.body).toEqual({ success: false, error: NO_PASSWORD_REFUSAL } as never)
    expect(await linksOf(vibes, 'quinn@oidc.test')).toEqual([{ subject: 'quinn' }])
    expect((await signIn(vibes, 'quinn')).location).toBe('/')

    // "Forgot your password?" gives the account a password: the link may go now.
    expect((await api(vibes.url, 'POST', '/auth/forgot-password', { body: { email: 'quinn@oidc.test' } })).status).toBe(200)
    const mail = (await smtp.waitFor('quinn@oidc.test')).raw.replace(/=\r?\n/g, '')
    const token = new RegExp(`${vibes.url.replace(/[.:/]/g, '\\$&')}/reset-password/([a-z0-9]+)`).exec(mail)?.[1] ?? ''
    expect((await api(vibes.url, 'POST', `/auth/reset-password/${token}`, { body: { password: 'quinns-new-password-7' } })).status).toBe(200)
    // A password reset ends every session: sign in again through the provider.
    const again = await signIn(vibes, 'quinn')
    expect(again.location).toBe('/')
    const now = await list(vibes, again.jar)
    expect(now.body.data.hasPassword).toBe(true)
    expect(now.body.data.signIns[0].unlinkRefusal).toBeNull()
    expect((await unlink(vibes, again.jar, 'oidc', 'quinn')).status).toBe(200)
    expect((await api(vibes.url, 'POST', '/auth/login', { body: { email: 'quinn@oidc.test', password: 'quinns-new-password-7' } })).status).toBe(200)
  })

  test("another member's link is not found, neither listed nor unlinked", async () => {
    const { jar: rita } = await signIn(vibes, 'rita')
    const other = await createMember(vibes.url, { email: 'nosy@example.com', password: 'nosy-password-1' })
    // The nosy member has no links of their own and sees none of rita's.
    const theirs = await api(vibes.url, 'GET', '/user/sign-ins', { token: other.token })
    expect(theirs.status).toBe(200)
    expect(theirs.body.data).toEqual({ signIns: [], hasPassword: true })
    const stolen = await api(vibes.url, 'DELETE', '/user/sign-ins/oidc/rita', { token: other.token })
    expect(stolen.status).toBe(404)
    expect(stolen.body).toEqual({ success: false, error: 'Linked sign-in not found' })
    expect(await linksOf(vibes, 'rita@oidc.test')).toEqual([{ subject: 'rita' }])
    expect((await list(vibes, rita)).body.data.signIns.map((s) => s.subject)).toEqual(['rita'])
  })

  test('bad input names the problem; no session, no list', async () => {
    const member = await createMember(vibes.url, { password: 'bad-input-password' })
    const wrongProvider = await api(vibes.url, 'DELETE', '/user/sign-ins/facebook/someone', { token: member.token })
    expect(wrongProvider.status).toBe(400)
    expect(wrongProvider.body.error).toContain('Provider must be one of oidc, github, google')
    const tooLong = await api(vibes.url, 'DELETE', `/user/sign-ins/oidc/${'x'.repeat(300)}`, { token: member.token })
    expect(tooLong.status).toBe(400)
    expect(tooLong.body.error).toContain('Subject must be at most 255 characters')
    expect((await api(vibes.url, 'GET', '/user/sign-ins')).status).toBe(401)
    expect((await api(vibes.url, 'DELETE', '/user/sign-ins/oidc/rita')).status).toBe(401)
  })
})

describe('linked sign-ins with LOCAL_LOGIN=off', () => {
  let provider: TestProvider
  let vibes: TestServer

  beforeAll(async () => {
    ;({ provider, vibes } = await vibesWithProvider(
      [
        { login: 'mo', email: 'mo@oidc.test', emailVerified: true },
        { login: 'mo-work', email: 'mo@oidc.test', emailVerified: true },
        { login: 'root', email: ADMIN.email, emailVerified: true },
      ],
      { LOCAL_LOGIN: 'off' },
    ))
  })

  afterAll(async () => {
    await vibes?.stop()
    await provider?.stop()
  })

  test("a member's password does not sign them in: the other link counts, the last one stays", async () => {
    // A member made while passwords were allowed, written as the server writes them.
    await sqlOn(vibes, "INSERT INTO users (id, username, email, password_hash, is_admin, created_at) VALUES ('mo1', 'mo-local', 'mo@oidc.test', ?, false, ?)", [
      await Bun.password.hash('mos-own-password', { algorithm: 'argon2id' }),
      Date.now(),
    ])
    await signInLinking(vibes, 'mo', 'mos-own-password')
    const jar = await signInLinking(vibes, 'mo-work', 'mos-own-password')
    const both = await list(vibes, jar)
    expect(both.body.data.hasPassword).toBe(true)
    expect(both.body.data.signIns.map((s) => [s.subject, s.unlinkRefusal])).toEqual([
      ['mo', null],
      ['mo-work', null],
    ])
    expect((await unlink(vibes, jar, 'oidc', 'mo-work')).status).toBe(200)
    const one = await list(vibes, jar)
    expect(one.body.data.signIns.map((s) => [s.subject, s.unlinkRefusal])).toEqual([['mo', PASSWORDS_OFF_REFUSAL]])
    const refused = await unlink(vibes, jar, 'oidc', 'mo')
    expect(refused.status).toBe(409)
    expect(refused.body.error).toBe(PASSWORDS_OFF_REFUSAL)
    expect(await linksOf(vibes, 'mo@oidc.test')).toEqual([{ subject: 'mo' }])
  })

  test("an admin's password still signs them in (at /login?local): their only link may go", async () => {
    const jar = await signInLinking(vibes, 'root', ADMIN.password)
    const listed = await list(vibes, jar)
    expect(listed.body.data.signIns.map((s) => [s.subject, s.unlinkRefusal])).toEqual([['root', null]])
    expect((await unlink(vibes, jar, 'oidc', 'root')).status).toBe(200)
    expect((await api(vibes.url, 'POST', '/auth/login', { body: ADMIN })).status).toBe(200)
  })
})
