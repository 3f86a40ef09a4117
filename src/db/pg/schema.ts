// The PostgreSQL tables, derived at module load from the SQLite table definitions in src/db/schema,
// which stay the one source of truth (docs/decisions/071-postgresql-schema-derived-from-sqlite.md):
// a table, column, index or foreign key added there appears here with no second definition, and
// `bun run db:generate:pg` writes its migration. Each table keeps its export name and column keys,
// so a query written against the SQLite tables reads the same against these.
//
// Storage follows what SQLite stores, so hand-written SQL and raw fragments keep working:
// integer → bigint (SQLite's INTEGER is 64-bit: byte sizes and millisecond times overflow int4),
// timestamp(_ms) → bigint of the same number, still a Date in code; boolean → boolean;
// real → double precision; text → text; text mode json → text holding the same JSON; blob → bytea.
// What cannot be translated with certainty (an unknown SQL expression in an index) throws here,
// at load, rather than producing a different index.
import { Column, getTableColumns, getTableName, is, SQL, type SQLChunk, sql } from 'drizzle-orm'
import { toSnakeCase } from 'drizzle-orm/casing'
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  doublePrecision,
  foreignKey,
  index,
  numeric,
  type PgColumnBuilderBase,
  type PgTableWithColumns,
  pgTable,
  primaryKey,
  text,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import { getTableConfig, type SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core'
import * as sqliteSchema from '../schema'

// biome-ignore lint/suspicious/noExplicitAny: the columns are only known at run time.
export type DerivedPgTable = PgTableWithColumns<any>

/** A column whose stored value is the number/text SQLite stores, converted by the SQLite column's own mappers. */
function sameValueAs(sqliteColumn: SQLiteColumn, dataType: string, fromDriver: (value: unknown) => unknown = (v) => v) {
  return customType<{ data: unknown; driverData: unknown }>({
    dataType: () => dataType,
    toDriver: (value) => sqliteColumn.mapToDriverValue(value),
    fromDriver: (value) => sqliteColumn.mapFromDriverValue(fromDriver(value)),
  })
}

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' })

/** SQLite's rowid alias: an INTEGER PRIMARY KEY is numbered when an insert leaves it out. */
function isRowid(column: SQLiteColumn) {
  return column.primary && column.columnType === 'SQLiteInteger'
}

function columnName(column: SQLiteColumn) {
  return column.keyAsName ? toSnakeCase(column.name) : column.name
}

function pgColumn(column: SQLiteColumn, rewrite: (value: SQL) => SQL): PgColumnBuilderBase {
  const name = columnName(column)
  // biome-ignore lint/suspicious/noExplicitAny: each builder below has its own type; the modifiers are common to all.
  let built: any
  switch (column.columnType) {
    case 'SQLiteInteger':
      built = bigint(name, { mode: 'number' })
      if (isRowid(column)) built = built.generatedByDefaultAsIdentity()
      break
    case 'SQLiteBigInt':
      built = bigint(name, { mode: 'bigint' })
      break
    case 'SQLiteBoolean':
      built = boolean(name)
      break
    case 'SQLiteTimestamp':
      built = sameValueAs(column, 'bigint', Number)(name)
      break
    case 'SQLiteReal':
      built = doublePrecision(name)
      break
    case 'SQLiteNumeric':
      built = numeric(name)
      break
    case 'SQLiteText':
      built = text(name)
      break
    case 'SQLiteTextJson':
      built = sameValueAs(column, 'text')(name)
      break
    case 'SQLiteBlobJson':
    case 'SQLiteBlobBuffer':
    case 'SQLiteBlobBigInt':
      built = column.columnType === 'SQLiteBlobBuffer' ? bytea(name) : sameValueAs(column, 'bytea')(name)
      break
    default:
      throw new Error(`${getTableName(column.table)}.${name}: no PostgreSQL type for ${column.columnType}`)
  }
  if (column.notNull && !isRowid(column)) built = built.notNull()
  if (column.primary) built = built.primaryKey()
  if (column.default !== undefined) built = built.default(is(column.default, SQL) ? rewrite(column.default) : column.default)
  if (column.defaultFn) built = built.$defaultFn(column.defaultFn)
  if (column.onUpdateFn) built = built.$onUpdateFn(column.onUpdateFn)
  if (column.isUnique) built = built.unique(column.uniqueName)
  // Computed lazily: the expression names this table's columns, which exist only once it is built.
  if (column.generated) built = built.generatedAlwaysAs(() => rewrite(column.generated?.as as SQL))
  return built
}

type Columns = [AnyPgColumn, ...AnyPgColumn[]]
type ExtraColumns = Record<string, AnyPgColumn & { desc(): unknown }>

/** An SQL fragment with each SQLite column swapped for its PostgreSQL twin (the text is kept as is). */
function rewriteColumns(value: SQL, keyOf: Map<SQLiteColumn, string>, t: ExtraColumns): SQL {
  const chunks = value.queryChunks.map((chunk): SQLChunk => {
    if (is(chunk, Column)) {
      const key = keyOf.get(chunk as SQLiteColumn)
      if (key === undefined || !t[key]) throw new Error(`${getTableName(chunk.table)}.${chunk.name}: only this table's own columns can be translated here`)
      return t[key]
    }
    if (is(chunk, SQL)) return rewriteColumns(chunk, keyOf, t)
    return chunk
  })
  return new SQL(chunks)
}

/** The SQLite index expressions we know a PostgreSQL equivalent of; anything else stops the load. */
function indexExpression(expression: SQL, keyOf: Map<SQLiteColumn, string>, t: ExtraColumns, where: string) {
  const columns: SQLiteColumn[] = []
  const shape = expression.queryChunks
    .map((chunk) => {
      if (is(chunk, Column)) {
        columns.push(chunk as SQLiteColumn)
        return '$'
      }
      const value = (chunk as { value?: string[] }).value
      if (Array.isArray(value)) return value.join('')
      throw new Error(`${where}: unsupported chunk in index expression`)
    })
    .join('')
    .trim()
  const column = columns.length === 1 ? t[keyOf.get(columns[0]) as string] : undefined
  if (column && shape === '$ DESC') return column.desc()
  // `nocase` is a case-blind ICU collation the first PostgreSQL migration creates, so raw SQL
  // saying `title COLLATE NOCASE` reads the same on both engines and uses this index.
  if (column && shape === '$ COLLATE NOCASE') return sql`${column} COLLATE nocase`
  if (column && shape === 'lower($)') return sql`lower(${column})`
  throw new Error(`${where}: no PostgreSQL translation for the index expression "${shape}"`)
}

function derive(table: SQLiteTable, all: Map<SQLiteTable, DerivedPgTable>): DerivedPgTable {
  const keyOf = new Map<SQLiteColumn, string>()
  const columns: Record<string, PgColumnBuilderBase> = {}
  for (const [key, column] of Object.entries(getTableColumns(table))) keyOf.set(column as SQLiteColumn, key)

  const config = getTableConfig(table)
  // SQL in a default or a generated column, with this table's columns (set once the table is built).
  let self: ExtraColumns = {}
  const rewrite = (value: SQL) => rewriteColumns(value, keyOf, self)
  for (const [key, column] of Object.entries(getTableColumns(table))) columns[key] = pgColumn(column as SQLiteColumn, rewrite)

  const col = (t: ExtraColumns, c: Column) => t[keyOf.get(c as SQLiteColumn) as string]
  const derived = pgTable(config.name, columns, (t: ExtraColumns) => {
    const extras: unknown[] = []
    for (const idx of config.indexes) {
      const { name: idxName, columns: parts, unique: isUnique, where } = idx.config
      const on = parts.map((part) => (is(part, SQL) ? indexExpression(part, keyOf, t, `${config.name}.${idxName}`) : col(t, part as Column))) as [
        AnyPgColumn,
        ...AnyPgColumn[],
      ]
      const built = (isUnique ? uniqueIndex(idxName) : index(idxName)).on(...on)
      extras.push(where ? built.where(rewriteColumns(where, keyOf, t)) : built)
    }
    for (const pk of config.primaryKeys) {
      extras.push(primaryKey({ name: pk.getName(), columns: pk.columns.map((c) => col(t, c)) as unknown as Columns }))
    }
    for (const uc of config.uniqueConstraints) {
      extras.push(unique(uc.getName()).on(...(uc.columns.map((c) => col(t, c)) as unknown as Columns)))
    }
    for (const ck of config.checks) extras.push(check(ck.name, rewriteColumns(ck.value, keyOf, t)))
    for (const fk of config.foreignKeys) {
      const ref = fk.reference()
      const target = all.get(ref.foreignTable) as DerivedPgTable
      const targetKeys = new Map(Object.entries(getTableColumns(ref.foreignTable)).map(([k, c]) => [c, k]))
      let built = foreignKey({
        name: fk.getName(),
        columns: ref.columns.map((c) => col(t, c)) as unknown as Columns,
        foreignColumns: ref.foreignColumns.map((c) => target[targetKeys.get(c) as string]) as unknown as Columns,
      })
      if (fk.onDelete) built = built.onDelete(fk.onDelete)
      if (fk.onUpdate) built = built.onUpdate(fk.onUpdate)
      extras.push(built)
    }
    // biome-ignore lint/suspicious/noExplicitAny: the extras are the pg-core builders' own return types.
    return extras as any
  }) as DerivedPgTable
  self = derived as unknown as ExtraColumns
  return derived
}

/** The PostgreSQL twin of every SQLite table among a module's exports, under the same export names. */
export function derivePgTables(exports: Record<string, unknown>) {
  const all = new Map<SQLiteTable, DerivedPgTable>()
  const byExportName: Record<string, DerivedPgTable> = {}
  for (const [name, value] of Object.entries(exports)) {
    if (!is(value, SQLiteTable)) continue
    const derived = derive(value, all)
    all.set(value, derived)
    byExportName[name] = derived
  }
  return byExportName
}

/** Every SQLite table's PostgreSQL twin, under the SQLite table's export name. */
export const pgTables: { [K in keyof typeof sqliteSchema as (typeof sqliteSchema)[K] extends SQLiteTable ? K : never]: DerivedPgTable } = derivePgTables(
  sqliteSchema,
) as never
