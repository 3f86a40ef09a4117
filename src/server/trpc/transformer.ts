// superjson as the tRPC transformer, with the metadata of incoming calls checked before superjson
// reads it. superjson (2.2.6) trusts `meta`: a string where it expects a subtree of
// `meta.values` (`{"values":{"a":"Date"}}`, `["class","Object"]`) is walked character by character
// until the stack overflows, about a second of CPU per call and before any auth check; metadata
// that does not fit the data (`referentialEqualities` into `null`) crashes with an engine
// TypeError whose text quotes the library's source. So only the shapes superjson itself writes
// are read, and any failure to read is the same 400 "Malformed superjson input", like any other
// unreadable input. Output is plain superjson, except for answers marked plainJson (below).
import superjson from 'superjson'

/** A value JSON carries as it is: no Date, Map, Set, bigint or class instance anywhere in it. */
export type PlainJson = string | number | boolean | null | undefined | readonly PlainJson[] | { readonly [key: string]: PlainJson }

const plainAnswers = new WeakSet<object>()

/**
 * Marks a procedure's answer as plain JSON, so it is sent without superjson's walk over every
 * value looking for types to annotate (there are none to find): for a 5,000-song playlist that
 * walk cost more than a third as much as making the answer. The type keeps Dates and the like out.
 */
export function plainJson<T extends PlainJson & object>(value: T): T {
  plainAnswers.add(value)
  return value
}

const MAX_DEPTH = 64

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

// A type annotation: 'Date', 'map', … or ['class' | 'symbol' | 'custom' | 'typed-array', name].
const isAnnotation = (v: unknown) => typeof v === 'string' || (Array.isArray(v) && v.length === 2 && v.every((p) => typeof p === 'string'))

// A values tree: [annotation] or [annotation, children], or a record of path → tree.
function isValueTree(node: unknown, depth: number): boolean {
  if (depth > MAX_DEPTH) return false
  if (Array.isArray(node)) return (node.length === 1 || node.length === 2) && isAnnotation(node[0]) && (node.length === 1 || isChildren(node[1], depth + 1))
  return isChildren(node, depth)
}
const isChildren = (node: unknown, depth: number) => isRecord(node) && Object.values(node).every((child) => isValueTree(child, depth + 1))

const isPathList = (v: unknown) => Array.isArray(v) && v.every((p) => typeof p === 'string')
const isPathMap = (v: unknown) => isRecord(v) && Object.values(v).every(isPathList)
// path → identical paths, or [paths identical to the root, path → identical paths].
const isReferences = (v: unknown) =>
  isPathMap(v) || (Array.isArray(v) && (v.length === 1 || v.length === 2) && isPathList(v[0]) && (v.length === 1 || isPathMap(v[1])))

/** Whether `meta` has the shape superjson writes (absent, or values / referentialEqualities / v). */
function isSuperjsonMeta(meta: unknown): boolean {
  if (meta === undefined || meta === null) return true
  if (!isRecord(meta)) return false
  const { values, referentialEqualities, v, ...rest } = meta
  if (Object.keys(rest).length > 0) return false
  if (v !== undefined && typeof v !== 'number') return false
  if (values !== undefined && !isValueTree(values, 0)) return false
  return referentialEqualities === undefined || isReferences(referentialEqualities)
}

export const MALFORMED_INPUT = 'Malformed superjson input'

export const transformer = {
  serialize: (value: unknown) => (typeof value === 'object' && value !== null && plainAnswers.has(value) ? { json: value } : superjson.serialize(value)),
  deserialize: (payload: unknown) => {
    if (isRecord(payload) && !isSuperjsonMeta(payload.meta)) throw new Error(MALFORMED_INPUT)
    try {
      return superjson.deserialize(payload as Parameters<typeof superjson.deserialize>[0])
    } catch {
      throw new Error(MALFORMED_INPUT)
    }
  },
}
