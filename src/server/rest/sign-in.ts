// The pages a browser passes through to sign in at an outside provider (docs/decisions/079):
//   GET  /auth/<provider>/start     leaves for the provider (state, nonce and PKCE verifier kept
//                                   in a signed, httpOnly cookie for ten minutes);
//   GET  /auth/<provider>/callback  comes back: checks the state, exchanges the code, verifies the
//                                   ID token, then signs the member in, or asks for their password
//                                   to link an existing account, or refuses;
//   POST /auth/link                 the password that links the provider account to that member.
// Every failure ends on the login page with a reason's name (/login?signInError=…), never a 5xx.
import { SignJWT, jwtVerify } from 'jose'
import type { SignInError } from '~/shared/sign-in'
import { confirmPassword } from '../auth/confirm-password'
import { loginThrottle } from '../auth/login-throttle'
import { createSession } from '../auth/sessions'
import { configuredProviders, type Identity, newPendingSignIn, type PendingSignIn, SignInRefused } from '../auth/sign-in-providers'
import { type ProviderId, SIGN_IN_PATH } from '../auth/sign-in-options'
import { config } from '../config'
import { InvalidError } from '../errors'
import { getDb } from '../db'
import { withLimitedBody } from '../http/body-limit'
import { clientInfo, forwardedHttps, withPeerAddress } from '../http/client-info'
import { authCookies, readCookie, serializeCookie } from '../http/cookies'
import { logger } from '../logger'
import { type AdminRule, linkIdentity, type Member, memberForIdentity, recordLogin } from '../services/sign-in'

const PENDING_COOKIE = 'vibes_sign_in'
const LINK_COOKIE = 'vibes_link'
const COOKIE_SECONDS = 600

const providers = new Map(configuredProviders(config).map((p) => [p.id, p]))

// Only the OpenID Connect provider sends the groups OIDC_ADMIN_GROUP is looked up in.
const adminRule = (provider: ProviderId): AdminRule => (provider === 'oidc' && config.OIDC_ADMIN_GROUP ? { group: config.OIDC_ADMIN_GROUP } : null)

const secretKey = new TextEncoder().encode(config.AUTH_SECRET)

// Signed so the browser holding them cannot change what they say; each purpose has its own audience.
async function seal(purpose: string, payload: Record<string, unknown>): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg: 'HS256' }).setAudience(`vibes:${purpose}`).setExpirationTime(`${COOKIE_SECONDS}s`).sign(secretKey)
}

async function unseal<T>(purpose: string, value: string | undefined): Promise<T | null> {
  if (!value) return null
  try {
    return (await jwtVerify(value, secretKey, { audience: `vibes:${purpose}`, algorithms: ['HS256'] })).payload as T
  } catch {
    return null
  }
}

const isSecure = (request: Request) => config.APP_URL.startsWith('https:') || forwardedHttps(withPeerAddress(request))

function cookie(request: Request, name: string, value: string | null): string {
  return serializeCookie(name, value ?? '', { maxAgeSec: value ? COOKIE_SECONDS : 0, httpOnly: true, secure: isSecure(request), path: SIGN_IN_PATH })
}

function redirect(location: string, cookies: string[] = [], status = 302): Response {
  const headers = new Headers({ location, 'cache-control': 'no-store' })
  for (const c of cookies) headers.append('set-cookie', c)
  return new Response(null, { status, headers })
}

const toLogin = (reason: SignInError, cookies: string[] = [], status = 302, extra = '') => redirect(`/login?signInError=${reason}${extra}`, cookies, status)

/** Signed in: a session like a password login's, its cookies, then the member's first page. */
async function signedIn(request: Request, member: Member, cookies: string[], status = 302): Promise<Response> {
  const db = getDb()
  const { token } = await createSession(db, member, config.AUTH_SECRET, request.headers.get('user-agent') ?? '')
  await recordLogin(db, member.id)
  return redirect(member.isAdmin ? '/admin' : '/', [...cookies, ...authCookies(token, isSecure(request))], status)
}

async function start(request: Request, id: ProviderId): Promise<Response> {
  const provider = providers.get(id)
  if (!provider) return redirect('/login')
  const pending = newPendingSignIn(id)
  const url = await provider.authorizationUrl(pending)
  return redirect(url.toString(), [cookie(request, PENDING_COOKIE, await seal('sign-in', pending))])
}

async function callback(request: Request, url: URL, id: ProviderId): Promise<Response> {
  const provider = providers.get(id)
  if (!provider) return redirect('/login')
  // The cookie is spent whatever happens next: one sign-in, one answer.
  const spent = [cookie(request, PENDING_COOKIE, null)]
  const pending = await unseal<PendingSignIn>('sign-in', readCookie(request.headers, PENDING_COOKIE))
  const state = url.searchParams.get('state')
  if (!pending || pending.provider !== id || !state || state !== pending.state) return toLogin('state', spent)
  if (url.searchParams.has('error')) return toLogin('denied', spent)
  const code = url.searchParams.get('code')
  if (!code) return toLogin('code', spent)
  const identity = await provider.identity(code, pending)
  const outcome = await memberForIdentity(getDb(), identity, adminRule(id))
  if (outcome.kind === 'refused') {
    logger.info({ provider: id, reason: outcome.reason }, 'sign-in refused')
    return toLogin(outcome.reason, spent)
  }
  if (outcome.kind === 'confirm-link') {
    const link = await seal('link', { identity, memberId: outcome.member.id, email: outcome.member.email })
    return redirect(`/login?linkWith=${id}`, [...spent, cookie(request, LINK_COOKIE, link)])
  }
  if (outcome.created) logger.info({ provider: id, userId: outcome.member.id }, 'member created at first sign-in')
  return signedIn(request, outcome.member, spent)
}

async function confirmLink(request: Request): Promise<Response> {
  const link = await unseal<{ identity: Identity; memberId: string; email: string }>('link', readCookie(request.headers, LINK_COOKIE))
  if (!link) return toLogin('link-expired', [cookie(request, LINK_COOKIE, null)], 303)
  const again = `&linkWith=${link.identity.provider}`
  const form = await request.formData().catch(() => null)
  const password = form?.get('password')
  const db = getDb()
  const attempt = { door: 'web' as const, account: link.email, address: clientInfo(withPeerAddress(request)).ip }
  if (loginThrottle.wait(attempt) > 0) return toLogin('link-throttled', [], 303, again)
  const confirmed =
    typeof password === 'string' &&
    (await confirmPassword(db, link.memberId, password).then(
      () => true,
      (error) => {
        if (error instanceof InvalidError) return false
        throw error
      },
    ))
  if (!confirmed) {
    loginThrottle.failed(attempt)
    return toLogin('link-password', [], 303, again)
  }
  loginThrottle.succeeded(attempt)
  const before = await linkIdentity(db, link.identity, link.memberId, adminRule(link.identity.provider))
  if (!before) return toLogin('link-expired', [cookie(request, LINK_COOKIE, null)], 303)
  logger.info({ provider: link.identity.provider, userId: before.id }, 'sign-in provider linked to a member')
  return signedIn(request, before, [cookie(request, LINK_COOKIE, null)], 303)
}

const ROUTE = /^\/auth\/(oidc|github|google)\/(start|callback)$/

export async function handleSignIn(request: Request, url: URL): Promise<Response> {
  try {
    if (url.pathname === '/auth/link' && request.method === 'POST') return await withLimitedBody(request, confirmLink)
    const match = ROUTE.exec(url.pathname)
    if (!match || request.method !== 'GET') return new Response('Not found', { status: 404 })
    const id = match[1] as ProviderId
    return match[2] === 'start' ? await start(request, id) : await callback(request, url, id)
  } catch (error) {
    if (error instanceof SignInRefused) {
      logger.info({ path: url.pathname, reason: error.reason, detail: error.message }, 'sign-in refused')
      return toLogin(error.reason, [cookie(request, PENDING_COOKIE, null)], request.method === 'POST' ? 303 : 302)
    }
    logger.error({ err: error, path: url.pathname }, 'sign-in failed')
    return toLogin('unavailable', [cookie(request, PENDING_COOKIE, null)], request.method === 'POST' ? 303 : 302)
  }
}
