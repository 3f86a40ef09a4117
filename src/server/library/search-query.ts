// What a member types into the search box, as an FTS5 query that cannot be anything but a list
// of word prefixes. Only runs of letters, digits and marks survive, each one quoted and given a
// `*` ("Björk hom" → `"Björk"* "hom"*`: every word must match the start of a word). Quotes,
// operators (AND/OR/NOT/NEAR are quoted words then), column filters, parentheses and `^` never
// reach FTS5 as syntax, so no input turns into a syntax error (a 5xx) or a different query.

export const SEARCH_MAX_WORDS = 8
const MAX_WORD = 64

/** The FTS5 MATCH expression for `input`, or null when it holds no word to look for. */
export function ftsQuery(input: string): string | null {
  const words = input.normalize('NFC').match(/[\p{L}\p{N}\p{M}]+/gu)
  if (!words) return null
  return words
    .slice(0, SEARCH_MAX_WORDS)
    .map((w) => `"${w.slice(0, MAX_WORD)}"*`)
    .join(' ')
}
