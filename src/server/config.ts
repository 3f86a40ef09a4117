// The server's configuration: every variable optional, each with its default. The environment is
// read through config-env.ts (parseProcessEnv), the one reader of process.env; the single binary
// (binary.ts) sets its two internal variables before this module loads. Parsed once,
// when the server starts (the command line answers --help, --version and backup before this
// module loads); a bad value stops the server with one line naming the variable.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { type Config, parseProcessEnv } from './config-env'

export type { Config, TrustProxy } from './config-env'

function readEnv(): Config {
  const result = parseProcessEnv()
  if ('error' in result) {
    console.error(result.error)
    process.exit(1)
  }
  const c = result.env
  // Every node must sign and check tokens with the same secret: one generated into one node's
  // DATA_DIR would make the others refuse its tokens.
  if (c.DATABASE_URL && !c.AUTH_SECRET) {
    console.error('AUTH_SECRET is required with DATABASE_URL: every node sharing the database must sign tokens with the same secret')
    process.exit(1)
  }
  const dataDir = path.resolve(c.DATA_DIR)
  // The database, secret and mails inside are the instance's keys: owner only.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  chmodSync(dataDir, 0o700)
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
  if (existsSync(file)) {
    chmodSync(file, 0o600)
    return readFileSync(file, 'utf8').trim()
  }
  const secret = randomBytes(48).toString('base64url')
  writeFileSync(file, secret, { mode: 0o600 })
  return secret
}

export const config: Config = readEnv()
