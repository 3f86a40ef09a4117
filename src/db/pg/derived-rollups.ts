// Roll-ups only PostgreSQL has, derived from the shared ones (docs/decisions/104). SQLite has no such
// table, so `vibes db copy` has nothing to copy into them: it fills them from the copied roll-ups, as
// rebuildRollups does after refilling those. Their triggers (migrations-pg/0019) keep them after that.

/** rollup_week_tracks: each track's plays per week (`day / 7`), one column per day of the week. */
export const PG_DERIVED_ROLLUP_TABLES = ['rollup_week_tracks'] as const

/** The roll-up tables whose triggers keep the derived roll-ups. */
export const PG_DERIVED_FROM = ['rollup_day_tracks'] as const

/**
 * Empties the derived roll-ups and fills them again from rollup_day_tracks (the statement that ends
 * migrations-pg/0019), in week order so that a short period's weeks lie on few pages.
 */
export const REFILL_DERIVED_ROLLUPS = [
  'DELETE FROM rollup_week_tracks',
  `INSERT INTO rollup_week_tracks SELECT day / 7, track_key, ${[0, 1, 2, 3, 4, 5, 6].map((i) => `coalesce(sum(plays) FILTER (WHERE day % 7 = ${i}), 0)`).join(', ')}
     FROM rollup_day_tracks GROUP BY 1, 2 ORDER BY 1, 2`,
] as const
