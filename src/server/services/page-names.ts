// Names for the pages of Hit Analytics: the page key of an album or artist page carries the
// library's id (library/albums/34ac…), which means nothing to an admin. The ids of the answer's
// rows are resolved in one query. A row whose id the library does not hold (removed since, or an
// address someone made up) joins the other such rows of its day under the route's pattern
// (library/albums/:id), so made-up ids cannot crowd the table. The day roll-ups keep visitors per
// page only, so a joined row's visitors are the sum of its pages' (a visitor of two such pages
// counts twice). The analytics query itself stays as it is (it only groups by page). One query per kind.
import { inArray } from 'drizzle-orm'
import { type Db, tablesOf } from '~/db/engine'

const ID_PAGES = [
  { prefix: 'library/albums/', table: 'libraryAlbums', kind: 'Album' },
  { prefix: 'library/artists/', table: 'libraryArtists', kind: 'Artist' },
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
  const tables = tablesOf(db)
  const names = new Map<string, string>()
  for (const p of ID_PAGES) {
    const ids = [...new Set(hits.dailyStats.flatMap((r) => (idPage(r.page)?.prefix === p.prefix ? [idPage(r.page)!.id] : [])))]
    if (ids.length === 0) continue
    const table = tables[p.table]
    for (const r of await db.select({ id: table.id, name: table.name }).from(table).where(inArray(table.id, ids))) names.set(`${p.prefix}${r.id}`, r.name)
  }
  const rows = new Map<string, HitRow & PageName>()
  for (const r of hits.dailyStats) {
    const id = idPage(r.page)
    const name = names.get(r.page)
    const page = id && name === undefined ? `${id.prefix}:id` : r.page
    const key = `${r.date}/${page}`
    const seen = rows.get(key)
    if (seen) {
      seen.totalHits += r.totalHits
      seen.uniqueVisitors += r.uniqueVisitors
    } else {
      rows.set(key, { ...r, page, name: id && name !== undefined ? `${id.kind} · ${name}` : null })
    }
  }
  const merged = [...rows.values()].sort((a, b) => b.date.localeCompare(a.date) || b.totalHits - a.totalHits || a.page.localeCompare(b.page))
  const joined = hits.dailyStats.length - merged.length
  return { ...hits, summary: { ...hits.summary, totalRecords: hits.summary.totalRecords - joined }, dailyStats: merged }
}
