// PostgreSQL migrations, generated from the tables derived from the SQLite schema (src/db/pg/schema.ts,
// docs/decisions/071-postgresql-schema-derived-from-sqlite.md). The column names are spelled out by
// the derivation, so no casing option here. `bun run db:generate:pg`.
import { defineConfig } from 'drizzle-kit'

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/pg/drizzle-kit-schema.cjs',
  out: './src/db/migrations-pg',
})
