// The environment's schema (every variable optional, each with its default), parsed without side
// effects: the server's config.ts adds its start-up effects (DATA_DIR, the generated secret); the
// backup command and the tests parse with this alone, so they create nothing. A bad value is one
// line naming the variable and never echoing a secret.
import { z } from 'zod'
import { parseTrustProxy, type TrustProxy } from './http/trust-proxy'

const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'on', 'off', 'yes', 'no'])
    .optional()
    .transform((v) => (v === undefined ? fallback : ['true', '1', 'on', 'yes'].includes(v)))

const optionalUrl = z.url({ protocol: /^https?$/ }).optional()

/** Variables whose values never appear in an error line. */
const SECRETS = new Set([
  'AUTH_SECRET',
  'ADMIN_PASSWORD',
  'SMTP_URL',
  'METRICS_TOKEN',
  'DATABASE_URL',
  'OIDC_CLIENT_SECRET',
  'GITHUB_CLIENT_SECRET',
  'GOOGLE_CLIENT_SECRET',
  'LASTFM_API_SECRET',
])

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .refine((s) => /^postgres(ql)?:\/\/./.test(s) && URL.canParse(s), 'must be a postgres://user:password@host:port/database URL')
    .optional(),
  MEDIA_ROOT: z.string().min(1).default('./media'),
  APP_URL: optionalUrl,
  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(6, 'must be at least 6 characters').optional(),
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  MAIL_FROM: z.string().min(3).default('Vibes <no-reply@vibes.local>'),
  REMOTE_ALLOW_HOSTS: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((h) =>
          h
            .trim()
            .toLowerCase()
            .replace(/^\[|\]$/g, ''),
        )
        .filter(Boolean),
    ),
  REMOTE_ALLOW_PRIVATE: flag(false),
  PODCAST_DOWNLOAD_QUOTA_MB: z.coerce.number().int().min(0).max(10_000_000).default(2048),
  PODCAST_REFRESH_MINUTES: z.coerce.number().int().min(0).max(10_080).default(60),
  CHARTS_SOURCE_URL: z
    .string()
    .refine((s) => /^https?:\/\//.test(s) && s.includes('{region}'), 'must be an http(s) URL containing {region}')
    .optional(),
  RATE_LIMIT: flag(true),
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((s, ctx) => {
      const parsed = parseTrustProxy(s)
      if (typeof parsed === 'string') {
        ctx.addIssue({ code: 'custom', message: parsed })
        return z.NEVER
      }
      return parsed
    }),
  DEFAULT_COUNTRY: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'must be a two-letter ISO 3166 country code')
    .transform((s) => s.toUpperCase())
    .optional(),
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(3600).default(10),
  FFMPEG_PATH: z.string().min(1).default('ffmpeg'),
  TRANSCODE_SLOTS: z.coerce.number().int().min(1).max(256).optional(),
  MEDIA_OFFLOAD: z.enum(['off', 'nginx']).default('off'),
  // Sent in a header and matched by nginx's location: plain URL path characters only.
  MEDIA_OFFLOAD_PREFIX: z
    .string()
    .regex(/^\/([A-Za-z0-9._~-]+\/)+$/, 'must be a URL path that starts and ends with / (e.g. /_vibes_media/)')
    .default('/_vibes_media/'),
  INSTANCE_NAME: z.string().min(1).max(200).optional(),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  OIDC_ISSUER_URL: optionalUrl,
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_NAME: z.string().min(1).max(40).default('Single sign-on'),
  OIDC_ADMIN_GROUP: z.string().min(1).optional(),
  OIDC_GROUPS_CLAIM: z.string().min(1).default('groups'),
  GITHUB_CLIENT_ID: z.string().min(1).optional(),
  GITHUB_CLIENT_SECRET: z.string().min(1).optional(),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  LOCAL_LOGIN: flag(true),
  AUTH_PROXY_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9-]+$/, 'must be an HTTP header name such as Remote-User')
    .transform((s) => s.toLowerCase())
    .optional(),
  LISTENBRAINZ_API_URL: z.url({ protocol: /^https?$/ }).default('https://api.listenbrainz.org'),
  LASTFM_API_KEY: z
    .string()
    .regex(/^[A-Za-z0-9]{8,64}$/, 'must be the API key Last.fm gave (letters and digits)')
    .optional(),
  LASTFM_API_SECRET: z
    .string()
    .regex(/^[A-Za-z0-9]{8,64}$/, 'must be the shared secret Last.fm gave (letters and digits)')
    .optional(),
  LASTFM_API_URL: z.url({ protocol: /^https?$/ }).default('https://ws.audioscrobbler.com'),
  LASTFM_AUTH_URL: z.url({ protocol: /^https?$/ }).default('https://www.last.fm/api/auth/'),
  SCROBBLE_RETRY_SECONDS: z.coerce.number().min(0.1).max(3600).default(30),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Internal: set by the single binary, which unpacks its embedded migrations to a temp folder.
  VIBES_MIGRATIONS: z.string().optional(),
  // Internal: the single binary's embedded GeoIP database (elsewhere it is found in node_modules).
  VIBES_GEOIP_DB: z.string().optional(),
})

/** The variables the schema reads (the internal one aside); `--help` must list each. */
export const SCHEMA_VARIABLES = Object.keys(EnvSchema.shape).filter((name) => !name.startsWith('VIBES_'))

export type { TrustProxy }
export type Env = z.infer<typeof EnvSchema>
export type Config = Omit<Env, 'VIBES_MIGRATIONS'> & {
  APP_URL: string
  AUTH_SECRET: string
  dbFile: string
  migrationsDir: string
}

/** The one line printed for a bad value; secrets are named, never shown. */
export function configErrorLine(name: string, message: string, value: string | undefined): string {
  const shown = SECRETS.has(name) ? '(value hidden)' : `(got ${JSON.stringify(value)})`
  return `Invalid configuration: ${name} ${message} ${shown}`
}

/** Parses an environment; `{ error }` holds the one line to print. Pure: creates no files. */
export function parseEnv(source: Record<string, string | undefined>): { env: Env } | { error: string } {
  // Empty strings count as unset, so `FOO= bun run start` behaves like leaving FOO out.
  const env = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== '' && v !== undefined)) as Record<string, string>
  const parsed = EnvSchema.safeParse(env)
  if (parsed.success) return pairsComplete(parsed.data, env)
  const issue = parsed.error.issues[0]
  const name = String(issue.path[0] ?? 'environment')
  return { error: configErrorLine(name, issue.message, env[name]) }
}

// A sign-in provider needs its whole set of variables; half a set is a mistake worth stopping for.
const PROVIDER_SETS = [
  ['OIDC_ISSUER_URL', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'],
  ['GITHUB_CLIENT_ID', 'GITHUB_CLIENT_SECRET'],
  ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'],
] as const

function pairsComplete(parsed: Env, env: Record<string, string>): { env: Env } | { error: string } {
  for (const set of PROVIDER_SETS) {
    const given = set.filter((name) => parsed[name] !== undefined)
    const missing = set.find((name) => parsed[name] === undefined)
    if (given.length > 0 && missing) return { error: configErrorLine(missing, `is required with ${given.join(' and ')}`, env[missing]) }
  }
  // The proxy's header means something only from addresses the server trusts.
  if (parsed.AUTH_PROXY_HEADER && parsed.TRUST_PROXY.kind === 'none') {
    return { error: configErrorLine('TRUST_PROXY', 'must name the proxy when AUTH_PROXY_HEADER is set', env.TRUST_PROXY) }
  }
  return { env: parsed }
}

/**
 * This process's environment, parsed: the one place that reads process.env, for the server
 * (config.ts) and the backup command (backup.ts).
 */
export const parseProcessEnv = () => parseEnv(process.env)
