// A list of any length bound as ONE parameter, a JSON array, so a statement over a playlist's
// 5,000 entries stays one statement with one parameter on either engine (no per-value `?`, no
// limit on the number of parameters). The elements are read per dialect: SQLite's json_each,
// PostgreSQL's jsonb_array_elements (docs/decisions/086).
import { type SQL, sql } from 'drizzle-orm'
import { type Db, isPostgres } from './engine'

/**
 * `SELECT value FROM <the list>`, for `x IN (${listOf(db, values)})`: text values, or with
 * `as: 'bigint'` integers (an id column on PostgreSQL compares with integers only).
 */
export function listOf(db: Db, values: readonly (string | number)[], as: 'text' | 'bigint' = 'text'): SQL {
  const json = JSON.stringify(values)
  // SQLite: json_each's value column holds the element as text or integer.
  if (!isPostgres(db)) return sql`SELECT value FROM json_each(${json})`
  // PostgreSQL: each element as text, cast when the column compared is an integer.
  if (as === 'bigint') return sql`SELECT CAST(value AS bigint) FROM jsonb_array_elements_text(${postgresJson(json)}) AS value`
  return sql`SELECT value FROM jsonb_array_elements_text(${postgresJson(json)}) AS value`
}

/**
 * PostgreSQL only: JSON text as a jsonb value. It is bound as text: Bun's client sends a string
 * bound where jsonb is expected as a JSON string (a scalar), not as the array it holds.
 */
export const postgresJson = (json: string): SQL => sql`CAST(CAST(${json} AS text) AS jsonb)`
