// Sign-in at an outside provider: any OpenID Connect provider found from its discovery URL, plus
// Google (OpenID Connect at a fixed issuer) and GitHub (OAuth 2 only: who the person is comes from
// its API). arctic builds the authorization URLs (with PKCE where the provider takes it) and
// exchanges the code; jose verifies the ID token: its signature against the provider's published
// keys (JWKS), its issuer, its audience (our client id), its expiry, and our nonce.
import { ArcticFetchError, CodeChallengeMethod, GitHub, generateCodeVerifier, generateState, OAuth2Client, OAuth2RequestError } from 'arctic'
import { createRemoteJWKSet, type JWTPayload, jwtVerify } from 'jose'
import type { SignInError } from '~/shared/sign-in'
import type { Config } from '../config-env'
import { offeredSignIns, type ProviderId } from './sign-in-options'

/** Who the provider says signed in. `groups` is null when the provider says nothing about groups. */
export type Identity = {
  provider: ProviderId
  subject: string
  email: string | null
  emailVerified: boolean
  username: string | null
  groups: string[] | null
}

/** What one sign-in keeps between leaving for the provider and coming back (in a signed cookie). */
export type PendingSignIn = { provider: ProviderId; state: string; nonce: string; codeVerifier: string }

/** A sign-in the provider or its answer did not allow; `reason` names the login page's message. */
export class SignInRefused extends Error {
  constructor(
    readonly reason: SignInError,
    detail: string,
  ) {
    super(detail)
  }
}

export type SignInProvider = {
  id: ProviderId
  name: string
  authorizationUrl(pending: PendingSignIn): Promise<URL>
  identity(code: string, pending: PendingSignIn): Promise<Identity>
}

export const callbackUrl = (appUrl: string, id: ProviderId) => `${appUrl}/auth/${id}/callback`

export function newPendingSignIn(provider: ProviderId): PendingSignIn {
  return { provider, state: generateState(), nonce: generateState(), codeVerifier: generateCodeVerifier() }
}

type Discovery = {
  issuer: string
  authorization_endpoint: string
  token_endpoint: string
  jwks_uri: string
  userinfo_endpoint?: string
  scopes_supported?: string[]
}

/** The provider's error when the code exchange fails: a refused code, or an unreachable provider. */
function exchangeFailed(error: unknown): never {
  if (error instanceof OAuth2RequestError) throw new SignInRefused('code', `token endpoint refused the code: ${error.code}`)
  if (error instanceof ArcticFetchError) throw new SignInRefused('unavailable', 'token endpoint unreachable')
  throw new SignInRefused('code', `token endpoint answer unusable: ${String(error)}`)
}

const asBoolean = (v: unknown) => v === true || v === 'true'
const asString = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : null)
function asGroups(v: unknown): string[] | null {
  if (Array.isArray(v)) return v.filter((g): g is string => typeof g === 'string')
  if (typeof v === 'string') return [v]
  return null
}

/**
 * Google's discovery document as Google publishes it, written down: starting a sign-in then needs
 * no round trip to Google (nor Google to be reachable), and the keys are fetched when a token
 * first needs them. Google's ID tokens name their issuer with or without the scheme (Google's
 * OpenID Connect documentation), so both are accepted.
 */
const GOOGLE: { discovery: Discovery; issuers: string[] } = {
  discovery: {
    issuer: 'https://accounts.google.com',
    authorization_endpoint: 'https://accounts.google.com/o/oauth2/v2/auth',
    token_endpoint: 'https://oauth2.googleapis.com/token',
    userinfo_endpoint: 'https://openidconnect.googleapis.com/v1/userinfo',
    jwks_uri: 'https://www.googleapis.com/oauth2/v3/certs',
    scopes_supported: ['openid', 'email', 'profile'],
  },
  issuers: ['https://accounts.google.com', 'accounts.google.com'],
}

/** Any OpenID Connect provider: from its discovery document, or from the one given (a preset's). */
function openIdConnect(options: {
  id: ProviderId
  name: string
  issuerUrl: string
  clientId: string
  clientSecret: string
  appUrl: string
  groupsClaim: string
  known?: { discovery: Discovery; issuers: string[] }
}): SignInProvider {
  const client = new OAuth2Client(options.clientId, options.clientSecret, callbackUrl(options.appUrl, options.id))
  const wellKnown = '/.well-known/openid-configuration'
  const discoveryUrl = options.issuerUrl.endsWith(wellKnown) ? options.issuerUrl : `${options.issuerUrl.replace(/\/$/, '')}${wellKnown}`
  type Discovered = { doc: Discovery; keys: ReturnType<typeof createRemoteJWKSet> }
  const written: Discovered | null = options.known
    ? { doc: options.known.discovery, keys: createRemoteJWKSet(new URL(options.known.discovery.jwks_uri)) }
    : null
  let discovered: Promise<Discovered> | null = null

  // Fetched once; a failure is forgotten so the next sign-in asks again.
  function discover(): Promise<Discovered> {
    if (written) return Promise.resolve(written)
    discovered ??= (async () => {
      const response = await fetch(discoveryUrl, { signal: AbortSignal.timeout(10_000) })
      if (!response.ok) throw new Error(`discovery answered ${response.status}`)
      const doc = (await response.json()) as Discovery
      for (const field of ['issuer', 'authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const) {
        if (typeof doc[field] !== 'string') throw new Error(`discovery document has no ${field}`)
      }
      return { doc, keys: createRemoteJWKSet(new URL(doc.jwks_uri)) }
    })()
    return discovered.catch((error) => {
      discovered = null
      throw new SignInRefused('unavailable', `OpenID Connect discovery failed: ${String(error)}`)
    })
  }

  return {
    id: options.id,
    name: options.name,
    async authorizationUrl(pending) {
      const { doc } = await discover()
      // `groups` only where the provider offers it: some refuse a scope they do not know.
      const scopes = ['openid', 'email', 'profile', ...(doc.scopes_supported?.includes('groups') ? ['groups'] : [])]
      const url = client.createAuthorizationURLWithPKCE(doc.authorization_endpoint, pending.state, CodeChallengeMethod.S256, pending.codeVerifier, scopes)
      url.searchParams.set('nonce', pending.nonce)
      return url
    },
    async identity(code, pending) {
      const { doc, keys } = await discover()
      const tokens = await client.validateAuthorizationCode(doc.token_endpoint, code, pending.codeVerifier).catch(exchangeFailed)
      let claims: JWTPayload
      try {
        ;({ payload: claims } = await jwtVerify(tokens.idToken(), keys, { issuer: options.known?.issuers ?? doc.issuer, audience: options.clientId }))
      } catch (error) {
        throw new SignInRefused('token', `ID token refused: ${String(error)}`)
      }
      if (claims.nonce !== pending.nonce) throw new SignInRefused('token', 'ID token nonce does not match this sign-in')
      const subject = claims.sub
      if (typeof subject !== 'string' || !subject) throw new SignInRefused('token', 'ID token has no subject')
      // Providers that keep the ID token small answer the rest at userinfo, for the same subject.
      if (claims.email === undefined && doc.userinfo_endpoint) claims = { ...(await userInfo(doc.userinfo_endpoint, tokens.accessToken(), subject)), ...claims }
      return {
        provider: options.id,
        subject,
        email: asString(claims.email)?.toLowerCase() ?? null,
        emailVerified: asBoolean(claims.email_verified),
        username: asString(claims.preferred_username) ?? asString(claims.name),
        groups: asGroups(claims[options.groupsClaim]),
      }
    },
  }
}

async function userInfo(endpoint: string, accessToken: string, subject: string): Promise<Record<string, unknown>> {
  const response = await fetch(endpoint, { headers: { authorization: `Bearer ${accessToken}` }, signal: AbortSignal.timeout(10_000) }).catch(() => null)
  if (!response?.ok) throw new SignInRefused('unavailable', 'userinfo endpoint unreachable')
  const info = (await response.json()) as Record<string, unknown>
  if (info.sub !== subject) throw new SignInRefused('token', 'userinfo answered for another subject')
  return info
}

/** GitHub: OAuth 2 (no ID token); the account and its verified e-mail come from GitHub's API. */
function gitHub(clientId: string, clientSecret: string, appUrl: string): SignInProvider {
  const github = new GitHub(clientId, clientSecret, callbackUrl(appUrl, 'github'))
  const api = async <T>(path: string, token: string): Promise<T> => {
    const response = await fetch(`https://api.github.com${path}`, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/vnd.github+json', 'user-agent': 'Vibes' },
      signal: AbortSignal.timeout(10_000),
    }).catch(() => null)
    if (!response?.ok) throw new SignInRefused('unavailable', `GitHub API ${path} failed`)
    return (await response.json()) as T
  }
  return {
    id: 'github',
    name: 'GitHub',
    authorizationUrl: async (pending) => github.createAuthorizationURL(pending.state, ['read:user', 'user:email']),
    async identity(code) {
      const tokens = await github.validateAuthorizationCode(code).catch(exchangeFailed)
      const token = tokens.accessToken()
      const user = await api<{ id: number; login: string }>('/user', token)
      const emails = await api<{ email: string; primary: boolean; verified: boolean }[]>('/user/emails', token)
      const primary = emails.find((e) => e.primary) ?? emails[0]
      return {
        provider: 'github',
        subject: String(user.id),
        email: primary?.email.toLowerCase() ?? null,
        emailVerified: primary?.verified === true,
        username: user.login,
        groups: null,
      }
    },
  }
}

const built = new WeakMap<Config, SignInProvider[]>()

/** The providers this configuration turns on, in the order the login page shows them (built once per configuration). */
export function configuredProviders(config: Config): SignInProvider[] {
  let providers = built.get(config)
  if (!providers) {
    providers = buildProviders(config)
    built.set(config, providers)
  }
  return providers
}

function buildProviders(config: Config): SignInProvider[] {
  // offeredSignIns offers a provider only when its settings are all there.
  const builders: Record<ProviderId, (name: string) => SignInProvider> = {
    oidc: (name) =>
      openIdConnect({
        id: 'oidc',
        name,
        issuerUrl: config.OIDC_ISSUER_URL as string,
        clientId: config.OIDC_CLIENT_ID as string,
        clientSecret: config.OIDC_CLIENT_SECRET as string,
        appUrl: config.APP_URL,
        groupsClaim: config.OIDC_GROUPS_CLAIM,
      }),
    google: (name) =>
      openIdConnect({
        id: 'google',
        name,
        issuerUrl: GOOGLE.discovery.issuer,
        clientId: config.GOOGLE_CLIENT_ID as string,
        clientSecret: config.GOOGLE_CLIENT_SECRET as string,
        appUrl: config.APP_URL,
        groupsClaim: 'groups',
        known: GOOGLE,
      }),
    github: () => gitHub(config.GITHUB_CLIENT_ID as string, config.GITHUB_CLIENT_SECRET as string, config.APP_URL),
  }
  return offeredSignIns(config).map(({ id, name }) => builders[id](name))
}
