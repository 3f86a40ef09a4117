// The REST route table against docs/rest-api.md, the contract clients read: every documented path
// is in the table once, with the method and the procedure the document names, and the table has
// no path the document leaves out. (What each route answers is tested over HTTP.)
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { loadApiSurface, routeKey } from '../helpers/api-surface'

const { routes } = await loadApiSurface()

// A path's parameters by position, not by name: the document may call `:id` `:playEventId`.
const shape = (p: string) => p.replace(/\?.*$/, '').replace(/:\w+/g, ':')

/** The rows of the REST table (Method | Path | Auth | Success | Answer | Procedure). */
function documentedRoutes(): { key: string; procedures: string[] }[] {
  const doc = readFileSync(path.resolve(import.meta.dir, '../../docs/rest-api.md'), 'utf8').split('\n')
  const start = doc.findIndex((line) => line.startsWith('| Method | Path | Auth | Success |'))
  expect(start).toBeGreaterThan(0)
  const rows: { key: string; procedures: string[] }[] = []
  for (const line of doc.slice(start + 2)) {
    if (!line.startsWith('|')) break
    const cells = line.split('|').map((c) => c.trim())
    const method = cells[1]
    const docPath = /^`([^`]+)`$/.exec(cells[2])?.[1]
    if (!docPath) throw new Error(`a row without a path: ${line.slice(0, 80)}`)
    // The last cell: the procedure, and any other it calls (`hits.counts` for HEAD).
    const procedures = [...cells[cells.length - 2].matchAll(/`([\w.]+)`/g)].map((m) => m[1])
    rows.push({ key: `${method} ${shape(docPath)}`, procedures })
  }
  return rows
}

describe('docs/rest-api.md and the route table', () => {
  const documented = documentedRoutes()
  const table = routes.map((info) => ({ key: `${info.route.method} ${shape(info.route.path)}`, procedures: info.procedures }))

  test('the document lists each path once and the table holds each path once', () => {
    expect(documented.length).toBeGreaterThan(80)
    const twice = (keys: string[]) => keys.filter((k, i) => keys.indexOf(k) !== i)
    expect(twice(documented.map((d) => d.key))).toEqual([])
    expect(twice(table.map((t) => t.key))).toEqual([])
  })

  test('every documented path is in the table, and every route of the table is documented', () => {
    const tableKeys = new Set(table.map((t) => t.key))
    const documentedKeys = new Set(documented.map((d) => d.key))
    expect(documented.map((d) => d.key).filter((k) => !tableKeys.has(k))).toEqual([])
    expect(routes.filter((info) => !documentedKeys.has(`${info.route.method} ${shape(info.route.path)}`)).map((info) => routeKey(info.route))).toEqual([])
  })

  test('each route calls the procedure the document names for it', () => {
    const named = new Map(documented.map((d) => [d.key, [...d.procedures].sort()]))
    const wrong = table.filter((t) => JSON.stringify([...t.procedures].sort()) !== JSON.stringify(named.get(t.key)))
    expect(wrong.map((t) => `${t.key}: calls ${t.procedures.join(', ')}, documented ${named.get(t.key)?.join(', ')}`)).toEqual([])
  })
})
