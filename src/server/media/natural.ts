// Natural ordering and file-name titles for library and remote listings (the Track shape and
// MIME map live in src/shared/player, shared with the browser).
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' })

/** Natural order ("2 x" before "10 x"), ties broken by code point so the order is total. */
export function naturalCompare(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0)
}

/** A file name without its directory and extension ('dir/Song.mp3' → 'Song'). */
export function fileTitle(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1)
  const dot = base.lastIndexOf('.')
  return dot > 0 ? base.slice(0, dot) : base
}
