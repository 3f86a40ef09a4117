-- Hand-written, PostgreSQL only (no SQLite counterpart): each track's plays per week, kept by
-- triggers on rollup_day_tracks. Week `week` is the days `week * 7` to `week * 7 + 6`; plays_i holds
-- the plays of day `week * 7 + i` (the plays of that day's rollup_day_tracks row, 0 when it has none).
-- Top tracks on PostgreSQL sums a period from here: its whole weeks and, from the week it starts in,
-- the columns of the days after its first day (src/server/services/stats.ts, docs/decisions/104):
-- about a sixth of the rows of summing every day row. A week row exists only while it has plays, as a
-- day row does. `vibes db copy` and rebuildRollups fill it with the statement at the end of this
-- file (REFILL_DERIVED_ROLLUPS in src/db/pg/derived-rollups.ts).
CREATE TABLE rollup_week_tracks (
	week bigint NOT NULL,
	track_key text NOT NULL,
	plays_0 integer NOT NULL,
	plays_1 integer NOT NULL,
	plays_2 integer NOT NULL,
	plays_3 integer NOT NULL,
	plays_4 integer NOT NULL,
	plays_5 integer NOT NULL,
	plays_6 integer NOT NULL,
	PRIMARY KEY (week, track_key)
);
--> statement-breakpoint
-- Adds `delta` plays to day `d` of a track's week (plays_(d % 7) of week d / 7); a week row left with
-- no plays goes, as a day row does.
CREATE FUNCTION rollup_week_tracks_add(k text, d bigint, delta bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	IF delta = 0 THEN RETURN; END IF;
	INSERT INTO rollup_week_tracks VALUES (d / 7, k, (d % 7 = 0)::int * delta, (d % 7 = 1)::int * delta, (d % 7 = 2)::int * delta, (d % 7 = 3)::int * delta, (d % 7 = 4)::int * delta, (d % 7 = 5)::int * delta, (d % 7 = 6)::int * delta)
	ON CONFLICT (week, track_key) DO UPDATE SET plays_0 = rollup_week_tracks.plays_0 + excluded.plays_0, plays_1 = rollup_week_tracks.plays_1 + excluded.plays_1, plays_2 = rollup_week_tracks.plays_2 + excluded.plays_2, plays_3 = rollup_week_tracks.plays_3 + excluded.plays_3, plays_4 = rollup_week_tracks.plays_4 + excluded.plays_4, plays_5 = rollup_week_tracks.plays_5 + excluded.plays_5, plays_6 = rollup_week_tracks.plays_6 + excluded.plays_6;
	IF delta < 0 THEN
		DELETE FROM rollup_week_tracks WHERE week = d / 7 AND track_key = k AND plays_0 = 0 AND plays_1 = 0 AND plays_2 = 0 AND plays_3 = 0 AND plays_4 = 0 AND plays_5 = 0 AND plays_6 = 0;
	END IF;
END
$$;
--> statement-breakpoint
-- A day row's plays follow it into its week: added when it appears or grows, taken out when it
-- shrinks or goes (one upsert per play, as the other roll-ups' triggers do).
CREATE FUNCTION rollup_week_tracks_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'UPDATE' AND OLD.track_key = NEW.track_key AND OLD.day = NEW.day THEN
		PERFORM rollup_week_tracks_add(NEW.track_key, NEW.day, NEW.plays - OLD.plays);
		RETURN NULL;
	END IF;
	IF TG_OP <> 'INSERT' THEN PERFORM rollup_week_tracks_add(OLD.track_key, OLD.day, -OLD.plays); END IF;
	IF TG_OP <> 'DELETE' THEN PERFORM rollup_week_tracks_add(NEW.track_key, NEW.day, NEW.plays); END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER rollup_week_tracks_insert_delete AFTER INSERT OR DELETE ON rollup_day_tracks FOR EACH ROW EXECUTE FUNCTION rollup_week_tracks_follow();
--> statement-breakpoint
-- Only when a day row's plays (or its key) change: the running-total updates (cum_plays of the later
-- days) and the title, artist and last_at updates fire nothing.
CREATE TRIGGER rollup_week_tracks_update AFTER UPDATE ON rollup_day_tracks FOR EACH ROW
	WHEN (OLD.plays <> NEW.plays OR OLD.day <> NEW.day OR OLD.track_key <> NEW.track_key) EXECUTE FUNCTION rollup_week_tracks_follow();
--> statement-breakpoint
-- The plays already stored (an instance that ran on PostgreSQL before this migration), in week order
-- so that a short period's weeks lie on few pages.
INSERT INTO rollup_week_tracks SELECT day / 7, track_key, coalesce(sum(plays) FILTER (WHERE day % 7 = 0), 0), coalesce(sum(plays) FILTER (WHERE day % 7 = 1), 0), coalesce(sum(plays) FILTER (WHERE day % 7 = 2), 0), coalesce(sum(plays) FILTER (WHERE day % 7 = 3), 0), coalesce(sum(plays) FILTER (WHERE day % 7 = 4), 0), coalesce(sum(plays) FILTER (WHERE day % 7 = 5), 0), coalesce(sum(plays) FILTER (WHERE day % 7 = 6), 0)
	FROM rollup_day_tracks GROUP BY 1, 2 ORDER BY 1, 2;
--> statement-breakpoint
-- Top tracks no longer reads day rows by day (migrations-pg/0017 indexed them for that): one index
-- fewer to keep on every new day row.
DROP INDEX rollup_day_tracks_day_idx;
