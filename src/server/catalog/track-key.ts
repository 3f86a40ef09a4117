// The one rule for "the same track" across days: a track's URL, except that a signed media URL
// (`/media/x.mp3?exp=…&sig=…`, re-issued every hour) loses its query, so a file played today and
// tomorrow is one track and no working media link is stored. Other query strings stay
// (`stream.php?id=3` and `?id=4` are different tracks). Written twice, once for JavaScript and
// once for SQL (play_events.track_key is TRACK_KEY_SQL as a generated column, migration 0011, so
// plays recorded before the rule still group right); tests/unit/catalog.rules.test.ts holds the
// two to the same answers.

/** The stable key of a track URL. */
export function trackKey(url: string): string {
  const query = url.indexOf('?')
  return query >= 0 && url.includes('sig=') ? url.slice(0, query) : url
}

/** trackKey over a `track_url` column. */
export const TRACK_KEY_SQL = `CASE WHEN instr(track_url, 'sig=') > 0 AND instr(track_url, '?') > 0 THEN substr(track_url, 1, instr(track_url, '?') - 1) ELSE track_url END`
