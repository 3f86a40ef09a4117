-- Hand-written, PostgreSQL only (no SQLite counterpart): the period's rows of rollup_day_tracks by day.
-- Top tracks on PostgreSQL sums the day rows of the period instead of SQLite's two index look-ups per
-- track in the running totals (src/server/services/stats.ts, docs/decisions/101); for a short period
-- this index reads only the period's rows. Only `day` is indexed so that the per-play updates of
-- plays and cum_plays stay HOT (no index entry changes).
CREATE INDEX rollup_day_tracks_day_idx ON rollup_day_tracks (day);
