// A NUL character (U+0000) is never meaningful in anything a client sends us, and PostgreSQL's text
// cannot hold or compare one (SQLite stored it). So the edges refuse it in every text input, on both
// engines alike: tRPC (and REST through it) before a procedure's input is read, /rest in its
// parameter reader, the plain HTTP routes in their own checks (docs/decisions/119).
export const NUL_MESSAGE = 'Text may not contain a NUL character'

/** The path of the first string (or object key) in a JSON-like value that holds a NUL, or null when none does. */
export function nulTextPath(value: unknown, path: string[] = []): string[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null
  if (typeof value !== 'object' || value === null) return null
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulTextPath(value[i], [...path, String(i)])
      if (found) return found
    }
    return null
  }
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000')) return [...path, key.replaceAll('\u0000', '\\0')]
    const found = nulTextPath(item, [...path, key])
    if (found) return found
  }
  return null
}

/** The message for a NUL found at `path`: the field's name first, as other validation messages. */
export function nulMessage(path: string[]): string {
  return path.length > 0 ? `${path.join('.')}: ${NUL_MESSAGE}` : NUL_MESSAGE
}
