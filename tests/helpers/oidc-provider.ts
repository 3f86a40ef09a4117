// A real OpenID Connect provider (the `oidc-provider` package) on loopback, with one client
// registered for Vibes and a few people to sign in as. Its login and consent pages are its own
// development pages: a test submits them as a browser would (signInAtProvider).
// `doctor` lets a test stand in for a provider that misbehaves: it rewrites the ID token in the
// token endpoint's answer (re-signed with the provider's own key unless the test gives another),
// so the answer still comes from the real flow with only the one flaw under test.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { decodeJwt, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose'
import Provider from 'oidc-provider'

export type Person = { login: string; email: string; emailVerified: boolean; groups?: string[]; name?: string }

export type IdTokenDoctor = { claims?: (claims: JWTPayload) => JWTPayload; signWithOtherKey?: boolean }

export type TestProvider = {
  issuer: string
  clientId: string
  clientSecret: string
  people: Map<string, Person>
  /** The flaw the next token answers carry (null: none). */
  doctor: IdTokenDoctor | null
  stop: () => Promise<void>
}

/** What makes Vibes at `appUrl` offer sign-in through this provider, on a button named `name`. */
export const signInEnv = (provider: TestProvider, appUrl: string, name = 'Test SSO') => ({
  APP_URL: appUrl,
  OIDC_ISSUER_URL: provider.issuer,
  OIDC_CLIENT_ID: provider.clientId,
  OIDC_CLIENT_SECRET: provider.clientSecret,
  OIDC_NAME: name,
})

export async function startProvider(redirectUri: string, people: Person[]): Promise<TestProvider> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true })
  const other = await generateKeyPair('RS256', { extractable: true })
  const signingJwk = { ...(await exportJWK(privateKey)), kid: 'provider-key', alg: 'RS256', use: 'sig' }
  const byLogin = new Map(people.map((p) => [p.login, p]))
  const clientId = 'vibes'
  const clientSecret = 'a-client-secret-for-the-tests-only'
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const provider = new Provider(issuer, {
    clients: [
      { client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], grant_types: ['authorization_code'], response_types: ['code'] },
    ],
    jwks: { keys: [signingJwk] },
    pkce: { required: () => true },
    scopes: ['openid', 'email', 'profile', 'groups'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['preferred_username', 'name'], groups: ['groups'] },
    // Every claim in the ID token itself, as many providers do, so the relying party needs no userinfo call.
    conformIdTokenClaims: false,
    findAccount: (_ctx: unknown, id: string) => {
      const person = byLogin.get(id)
      if (!person) return undefined
      return {
        accountId: id,
        claims: () => ({
          sub: id,
          email: person.email,
          email_verified: person.emailVerified,
          preferred_username: person.login,
          name: person.name ?? person.login,
          groups: person.groups ?? [],
        }),
      }
    },
    cookies: { keys: ['cookie-key-for-the-tests-only'] },
  })
  const handle = provider.callback()
  const state: TestProvider = {
    issuer,
    clientId,
    clientSecret,
    people: byLogin,
    doctor: null,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const doctor = state.doctor
    if (!doctor || req.method !== 'POST' || !req.url?.startsWith('/token')) return void handle(req, res)
    // Let the provider answer, then rewrite its ID token before it leaves.
    let body = ''
    const write = res.write.bind(res) as (chunk: string) => boolean
    const end = res.end.bind(res) as () => ServerResponse
    res.write = ((chunk: Uint8Array | string) => {
      body += typeof chunk === 'string' ? chunk : new TextDecoder().decode(chunk)
      return true
    }) as typeof res.write
    res.end = ((chunk?: Uint8Array | string) => {
      if (chunk) body += typeof chunk === 'string' ? chunk : new TextDecoder().decode(chunk)
      void doctored(body, doctor).then((text) => {
        res.removeHeader('content-length')
        res.setHeader('content-length', Buffer.byteLength(text))
        write(text)
        end()
      })
      return res
    }) as typeof res.end
    handle(req, res)
  })

  async function doctored(body: string, doctor: IdTokenDoctor): Promise<string> {
    const answer = JSON.parse(body) as { id_token?: string }
    if (!answer.id_token) return body
    const claims = doctor.claims ? doctor.claims(decodeJwt(answer.id_token)) : decodeJwt(answer.id_token)
    const key = doctor.signWithOtherKey ? other.privateKey : privateKey
    answer.id_token = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'provider-key' }).sign(key)
    return JSON.stringify(answer)
  }

  return state
}

/** Cookies as a browser keeps them, per origin (enough for one provider and one Vibes). */
export class CookieJar {
  private jars = new Map<string, Map<string, string>>()
  take(url: string, response: Response) {
    const origin = new URL(url).origin
    const jar = this.jars.get(origin) ?? new Map<string, string>()
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const eq = pair.indexOf('=')
      const name = pair.slice(0, eq).trim()
      const value = pair.slice(eq + 1).trim()
      if (/max-age=0\b/i.test(line) || /expires=thu, 01 jan 1970/i.test(line)) jar.delete(name)
      else jar.set(name, value)
    }
    this.jars.set(origin, jar)
  }
  header(url: string): string {
    const jar = this.jars.get(new URL(url).origin)
    return jar ? [...jar].map(([k, v]) => `${k}=${v}`).join('; ') : ''
  }
  get(url: string, name: string): string | undefined {
    return this.jars.get(new URL(url).origin)?.get(name)
  }
  set(url: string, name: string, value: string) {
    const origin = new URL(url).origin
    const jar = this.jars.get(origin) ?? new Map<string, string>()
    jar.set(name, value)
    this.jars.set(origin, jar)
  }
}

/** One request as a browser makes it: the jar's cookies go along, its answer's cookies are kept. Redirects are not followed. */
export async function browse(jar: CookieJar, url: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers)
  const cookie = jar.header(url)
  if (cookie) headers.set('cookie', cookie)
  const response = await fetch(url, { ...init, headers, redirect: 'manual' })
  jar.take(url, response)
  return response
}

/** The hidden and named inputs of the first form in a page, and where it posts. */
function firstForm(html: string, pageUrl: string): { action: string; fields: Record<string, string> } {
  const form = /<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/i.exec(html)
  if (!form) throw new Error(`no form in provider page:\n${html.slice(0, 500)}`)
  const fields: Record<string, string> = {}
  for (const input of form[2].matchAll(/<input[^>]*>/gi)) {
    const name = /name="([^"]*)"/.exec(input[0])?.[1]
    const value = /value="([^"]*)"/.exec(input[0])?.[1] ?? ''
    if (name) fields[name] = value
  }
  return { action: new URL(form[1], pageUrl).toString(), fields }
}

/**
 * From the provider's authorization URL to the redirect back to Vibes: follows the provider's
 * redirects, submits its login form as `login` and its consent form. Answers the callback URL
 * (not yet visited).
 */
export async function signInAtProvider(jar: CookieJar, authorizationUrl: string, login: string): Promise<string> {
  let url = authorizationUrl
  let init: RequestInit = {}
  for (let step = 0; step < 20; step++) {
    const response = await browse(jar, url, init)
    init = {}
    const location = response.headers.get('location')
    if (location) {
      const next = new URL(location, url).toString()
      if (!next.startsWith(new URL(authorizationUrl).origin)) return next
      url = next
      continue
    }
    const html = await response.text()
    if (response.status !== 200) throw new Error(`provider answered ${response.status}: ${html.slice(0, 300)}`)
    const form = firstForm(html, url)
    if ('login' in form.fields || /name="login"/.test(html)) {
      form.fields.login = login
      form.fields.password = 'any'
    }
    url = form.action
    init = { method: 'POST', body: new URLSearchParams(form.fields), headers: { 'content-type': 'application/x-www-form-urlencoded' } }
  }
  throw new Error('the provider never sent the browser back')
}
