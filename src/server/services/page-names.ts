// Names for the pages of Hit Analytics: the page key of an album or artist page carries the
// library's id (library/albums/34ac…), which means nothing to an admin. The ids of the answer's
// rows are resolved in one query. A row whose id the library does not hold (removed since, or an
// address someone made up) joins the other such rows of its day under the route's pattern
// (library/albums/:id), so made-up ids cannot crowd the table. The day roll-ups keep visitors per
// page only, so a joined row's visitors are the sum of its pages' (a visitor of two such pages
// counts twice). The analytics query itself stays as it is (it only groups by page).
import { type SQL, sql } from 'drizzle-orm'
import { type Db, rows } from '~/db/engine'
import { listOf } from '~/db/json-list'

const ID_PAGES = [
  { prefix: 'library/albums/', table: 'library_albums', kind: 'Album' },
  { prefix: 'library/artists/', table: 'library_artists', kind: 'Artist' },
] as const

type HitRow = { date: string; page: string; totalHits: number; uniqueVisitors: number }
/** What the page is, when the key alone does not say: "Album · Homogenic". */
export type PageName = { name: string | null }

/** The library id in a page key (`library/albums/<id>`, nothing after it) and its kind, or null. */
function idPage(page: string) {
  for (const p of ID_PAGES) {
    if (!page.startsWith(p.prefix)) continue
    const id = page.slice(p.prefix.length)
    return id && !id.includes('/') ? { ...p, id } : null
  }
  return null
}

export async function withPageNames<T extends { summary: { totalRecords: number }; dailyStats: HitRow[] }>(
  db: Db,
  hits: T,
): Promise<Omit<T, 'dailyStats'> & { dailyStats: Array<HitRow & PageName> }> {
  const ids = ID_PAGES.map((p) => [...new Set(hits.dailyStats.flatMap((r) => (idPage(r.page)?.prefix === p.prefix ? [idPage(r.page)!.id] : [])))])
  const selects: SQL[] = ID_PAGES.map(
    (p, i) => sql`SELECT CAST(${p.prefix} AS text) || id AS page, name FROM ${sql.raw(p.table)} WHERE id IN (${listOf(db, ids[i])})`,
  )
  const names = new Map(
    ids.some((list) => list.length > 0)
      ? (await rows<{ page: string; name: string }>(db, sql.join(selects, sql` UNION ALL `))).map((r) => [r.page, r.name] as const)
      : [],
  )
  const byDayAndPage = new Map<string, HitRow & PageName>()
  for (const r of hits.dailyStats) {
    const id = idPage(r.page)
    const name = names.get(r.page)
    const page = id && name === undefined ? `${id.prefix}:id` : r.page
    const key = `${r.date}/${page}`
    const seen = byDayAndPage.get(key)
    if (seen) {
      seen.totalHits += r.totalHits
      seen.uniqueVisitors += r.uniqueVisitors
    } else {
      byDayAndPage.set(key, { ...r, page, name: id && name !== undefined ? `${id.kind} · ${name}` : null })
    }
  }
  const merged = [...byDayAndPage.values()].sort((a, b) => b.date.localeCompare(a.date) || b.totalHits - a.totalHits || a.page.localeCompare(b.page))
  const joined = hits.dailyStats.length - merged.length
  return { ...hits, summary: { ...hits.summary, totalRecords: hits.summary.totalRecords - joined }, dailyStats: merged }
}
