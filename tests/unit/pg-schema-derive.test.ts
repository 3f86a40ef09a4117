// The PostgreSQL tables are derived from SQLite table objects (src/db/pg/schema.ts): these cover what
// the app's tables do not use yet, so a table added with them still comes out right: composite keys
// and foreign keys with both actions, unique constraints, partial indexes, checks, generated
// columns, JSON, blobs and second-resolution timestamps. An index expression with no known
// PostgreSQL equivalent stops the load instead of producing a different index.
import { describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { PgDialect, getTableConfig as pgConfig } from 'drizzle-orm/pg-core'
import { blob, check, foreignKey, index, integer, primaryKey, sqliteTable, text, unique } from 'drizzle-orm/sqlite-core'
import { derivePgTables } from '../../src/db/pg/schema'

const parents = sqliteTable(
  'parents',
  {
    orgId: text().notNull(),
    code: text().notNull(),
    settings: text({ mode: 'json' }).$type<{ a: number }>(),
    picture: blob({ mode: 'buffer' }),
    seenAt: integer({ mode: 'timestamp' }),
    rank: integer().notNull().default(3),
    label: text().generatedAlwaysAs(sql`upper(code)`),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.code] }),
    unique('parents_rank_code_unique').on(t.rank, t.code),
    check('parents_rank_positive', sql`${t.rank} > 0`),
    index('parents_seen_idx').on(t.seenAt).where(sql`${t.seenAt} IS NOT NULL`),
  ],
)

const children = sqliteTable(
  'children',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    orgId: text(),
    code: text(),
  },
  (t) => [
    foreignKey({ columns: [t.orgId, t.code], foreignColumns: [parents.orgId, parents.code] })
      .onDelete('cascade')
      .onUpdate('set null'),
  ],
)

const dialect = new PgDialect()
const render = (value: Parameters<PgDialect['sqlToQuery']>[0]) => dialect.sqlToQuery(value).sql

describe('PostgreSQL tables derived from SQLite ones', () => {
  const derived = derivePgTables({ parents, children, notATable: 42 })

  test('only tables are derived, under their export names', () => {
    expect(Object.keys(derived).sort()).toEqual(['children', 'parents'])
  })

  test('columns: snake_case names, mapped types, nullability, defaults, generated', () => {
    const config = pgConfig(derived.parents)
    const columns = Object.fromEntries(config.columns.map((c) => [c.name, { type: c.getSQLType(), notNull: c.notNull, default: c.default }]))
    expect(columns).toEqual({
      org_id: { type: 'text', notNull: true, default: undefined },
      code: { type: 'text', notNull: true, default: undefined },
      settings: { type: 'text', notNull: false, default: undefined },
      picture: { type: 'bytea', notNull: false, default: undefined },
      seen_at: { type: 'bigint', notNull: false, default: undefined },
      rank: { type: 'bigint', notNull: true, default: 3 },
      label: { type: 'text', notNull: false, default: undefined },
    })
    const label = config.columns.find((c) => c.name === 'label')
    const generated = label?.generated?.as
    expect(render(typeof generated === 'function' ? generated() : generated)).toBe('upper(code)')
    const id = pgConfig(derived.children).columns.find((c) => c.name === 'id')
    expect({ type: id?.getSQLType(), primary: id?.primary, identity: id?.generatedIdentity?.type }).toEqual({
      type: 'bigint',
      primary: true,
      identity: 'byDefault',
    })
  })

  test('values read back as SQLite gives them: JSON parsed, timestamps as Dates of the same stored number', () => {
    const byName = Object.fromEntries(pgConfig(derived.parents).columns.map((c) => [c.name, c]))
    expect(byName.settings.mapToDriverValue({ a: 1 })).toBe('{"a":1}')
    expect(byName.settings.mapFromDriverValue('{"a":1}')).toEqual({ a: 1 })
    // mode 'timestamp' stores seconds, as on SQLite; PostgreSQL's bigint may arrive as a string.
    expect(byName.seen_at.mapToDriverValue(new Date(1_700_000_000_000))).toBe(1_700_000_000)
    expect(byName.seen_at.mapFromDriverValue('1700000000')).toEqual(new Date(1_700_000_000_000))
  })

  test('keys, unique constraints, checks, partial indexes and foreign keys with their actions', () => {
    const p = pgConfig(derived.parents)
    expect(p.primaryKeys.map((k) => k.columns.map((c) => c.name))).toEqual([['org_id', 'code']])
    expect(p.uniqueConstraints.map((u) => [u.getName(), u.columns.map((c) => c.name)])).toEqual([['parents_rank_code_unique', ['rank', 'code']]])
    expect(p.checks.map((c) => [c.name, render(c.value)])).toEqual([['parents_rank_positive', '"parents"."rank" > 0']])
    const [idx] = p.indexes
    expect({ name: idx.config.name, where: idx.config.where && render(idx.config.where) }).toEqual({
      name: 'parents_seen_idx',
      where: '"parents"."seen_at" IS NOT NULL',
    })
    const [fk] = pgConfig(derived.children).foreignKeys
    const ref = fk.reference()
    expect({
      columns: ref.columns.map((c) => c.name),
      target: pgConfig(ref.foreignTable).name,
      foreignColumns: ref.foreignColumns.map((c) => c.name),
      onDelete: fk.onDelete,
      onUpdate: fk.onUpdate,
    }).toEqual({ columns: ['org_id', 'code'], target: 'parents', foreignColumns: ['org_id', 'code'], onDelete: 'cascade', onUpdate: 'set null' })
    expect(ref.foreignTable).toBe(derived.parents)
  })

  test('an index expression with no known PostgreSQL equivalent stops the load', () => {
    const odd = sqliteTable('odd', { name: text() }, (t) => [index('odd_name_idx').on(sql`substr(${t.name}, 1, 3)`)])
    expect(() => pgConfig(derivePgTables({ odd }).odd)).toThrow('odd.odd_name_idx: no PostgreSQL translation for the index expression "substr($, 1, 3)"')
  })
})
