// Text a client sends may not hold a NUL character (U+0000) nor a lone UTF-16 surrogate (text that
// is not Unicode, which a JSON body's "\ud800" can carry). Neither is ever meaningful, and
// PostgreSQL's UTF-8 text can hold or compare neither (SQLite stored them). So the edges refuse
// both in every text input, on both engines alike: tRPC (and REST through it) where a procedure's
// input is read, /rest in its parameter reader, the plain HTTP routes that look an id up.
export const NUL_MESSAGE = 'Text may not contain a NUL character'
export const NOT_UNICODE_MESSAGE = 'Text must be valid Unicode'

// With the u flag a surrogate half matches only when it stands alone (a pair is one code point).
const LONE_SURROGATE = /\p{Surrogate}/u

/** What is wrong with a piece of text, or null when nothing is. */
export function textProblem(text: string): string | null {
  if (text.includes('\u0000')) return NUL_MESSAGE
  if (LONE_SURROGATE.test(text)) return NOT_UNICODE_MESSAGE
  return null
}

/** The first string (or object key) in a JSON-like value with a problem: where it is and what, or null. */
export function badTextIn(value: unknown, path: string[] = []): { path: string[]; problem: string } | null {
  if (typeof value === 'string') {
    const problem = textProblem(value)
    return problem ? { path, problem } : null
  }
  if (typeof value !== 'object' || value === null) return null
  const entries: Array<[string, unknown]> = Array.isArray(value) ? value.map((item, i) => [String(i), item]) : Object.entries(value)
  for (const [key, item] of entries) {
    const keyProblem = textProblem(key)
    if (keyProblem) return { path, problem: keyProblem }
    const found = badTextIn(item, [...path, key])
    if (found) return found
  }
  return null
}

/** The message for bad text found in an input: the field's name first, as other validation messages. */
export function badTextMessage({ path, problem }: { path: string[]; problem: string }): string {
  return path.length > 0 ? `${path.join('.')}: ${problem}` : problem
}
