// The only reader of process.env (CONTRACT §2). Parsed once at start-up; a bad value stops the
// server with one line naming the variable.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { z } from 'zod'

const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'on', 'off', 'yes', 'no'])
    .optional()
    .transform((v) => (v === undefined ? fallback : ['true', '1', 'on', 'yes'].includes(v)))

const optionalUrl = z.url({ protocol: /^https?$/ }).optional()

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
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
        .map((h) => h.trim().toLowerCase().replace(/^\[|\]$/g, ''))
        .filter(Boolean),
    ),
  REMOTE_ALLOW_PRIVATE: flag(false),
  CHARTS_SOURCE_URL: z
    .string()
    .refine((s) => /^https?:\/\//.test(s) && s.includes('{region}'), 'must be an http(s) URL containing {region}')
    .optional(),
  RATE_LIMIT: flag(true),
  TRUST_PROXY: flag(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Internal: set by the single binary, which unpacks its embedded migrations to a temp folder.
  VIBES_MIGRATIONS: z.string().optional(),
})

export type Config = Omit<z.infer<typeof EnvSchema>, 'VIBES_MIGRATIONS'> & {
  APP_URL: string
  AUTH_SECRET: string
  dbFile: string
  migrationsDir: string
}

function readEnv(): Config {
  // Empty strings count as unset, so `FOO= bun run start` behaves like leaving FOO out.
  const env = Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== ''))
  const parsed = EnvSchema.safeParse(env)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const name = String(issue.path[0] ?? 'environment')
    console.error(`Invalid configuration: ${name} ${issue.message} (got ${JSON.stringify(env[name])})`)
    process.exit(1)
  }
  const c = parsed.data
  const dataDir = path.resolve(c.DATA_DIR)
  mkdirSync(dataDir, { recursive: true })
  return {
    ...c,
    DATA_DIR: dataDir,
    MEDIA_ROOT: path.resolve(c.MEDIA_ROOT),
    APP_URL: (c.APP_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, ''),
    AUTH_SECRET: c.AUTH_SECRET ?? generatedSecret(dataDir),
    dbFile: path.join(dataDir, 'vibes.db'),
    migrationsDir: c.VIBES_MIGRATIONS ?? path.resolve('src/db/migrations'),
  }
}

// Generated once and kept in DATA_DIR so tokens survive restarts.
function generatedSecret(dataDir: string): string {
  const file = path.join(dataDir, 'auth-secret')
  if (existsSync(file)) return readFileSync(file, 'utf8').trim()
  const secret = randomBytes(48).toString('base64url')
  writeFileSync(file, secret, { mode: 0o600 })
  return secret
}

export const config: Config = readEnv()
