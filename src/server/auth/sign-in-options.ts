// Which outside providers this instance offers for sign-in, from the configuration alone. The login
// page and the front need only this; the code that talks to a provider (arctic, jose:
// sign-in-providers.ts) loads on the first sign-in, so an instance without one never loads it.
import type { Config } from '../config-env'

/** Where the sign-in pages live: /auth/<provider>/start, /auth/<provider>/callback, /auth/link. */
export const SIGN_IN_PATH = '/auth'

export type ProviderId = 'oidc' | 'github' | 'google'

export type OfferedSignIn = { id: ProviderId; name: string }

/** The providers this configuration turns on, in the order the login page shows them. */
export function offeredSignIns(config: Config): OfferedSignIn[] {
  const offered: OfferedSignIn[] = []
  if (config.OIDC_ISSUER_URL && config.OIDC_CLIENT_ID && config.OIDC_CLIENT_SECRET) offered.push({ id: 'oidc', name: config.OIDC_NAME })
  if (config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET) offered.push({ id: 'google', name: 'Google' })
  if (config.GITHUB_CLIENT_ID && config.GITHUB_CLIENT_SECRET) offered.push({ id: 'github', name: 'GitHub' })
  return offered
}
