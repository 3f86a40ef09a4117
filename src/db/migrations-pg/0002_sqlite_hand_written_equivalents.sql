-- Hand-written: the PostgreSQL equivalents of the SQL written by hand in the SQLite migrations
-- (src/db/migrations), which drizzle-kit cannot derive from the table definitions (decision 071).
-- A PostgreSQL database starts empty, so the SQLite migrations' backfills of existing rows
-- (0001 page_hit_counts, 0011 and 0013/0014 roll-ups) have no counterpart here.
--
-- Search (SQLite 0004/0010: FTS5, unicode61 remove_diacritics 2, prefix indexes). Case- and
-- accent-blind word prefixes: each row's words, with accents stripped (unaccent) and split on
-- anything that is not a letter or digit as unicode61 does, form a `simple` tsvector; a GIN index
-- on that expression answers `library_search_document(…) @@ library_search_query('bjo')`, and
-- PostgreSQL keeps the index in step with the table, so no triggers. unaccent() is only STABLE
-- (its dictionary could change), so these wrappers name the dictionary and are declared IMMUTABLE,
-- as an index expression must be.
CREATE EXTENSION IF NOT EXISTS unaccent;
--> statement-breakpoint
CREATE FUNCTION library_search_document(VARIADIC parts text[]) RETURNS tsvector
	LANGUAGE sql IMMUTABLE PARALLEL SAFE
	RETURN to_tsvector('simple'::regconfig,
		regexp_replace(public.unaccent('public.unaccent'::regdictionary, array_to_string(parts, ' ')), '[^[:alnum:]]+', ' ', 'g'));
--> statement-breakpoint
-- Every word of what was typed as a prefix, all required ('bjo gud' → 'bjo':* & 'gud':*); words are
-- letters and digits only, so none can carry tsquery syntax. Nothing typed matches nothing.
CREATE FUNCTION library_search_query(typed text) RETURNS tsquery
	LANGUAGE sql IMMUTABLE PARALLEL SAFE
	RETURN (SELECT to_tsquery('simple'::regconfig, coalesce(string_agg('''' || word || ''':*', ' & '), ''))
		FROM regexp_split_to_table(lower(public.unaccent('public.unaccent'::regdictionary, coalesce(typed, ''))), '[^[:alnum:]]+') AS word
		WHERE word <> '');
--> statement-breakpoint
CREATE INDEX library_tracks_search_idx ON library_tracks USING gin (library_search_document(title, artist, album, genre));
--> statement-breakpoint
CREATE INDEX library_albums_search_idx ON library_albums USING gin (library_search_document(name, artist, genre));
--> statement-breakpoint
CREATE INDEX library_artists_search_idx ON library_artists USING gin (library_search_document(name));
--> statement-breakpoint

-- The analytics' track identity (SQLite 0011: a VIRTUAL generated column; PostgreSQL 15 has STORED only).
ALTER TABLE play_events ADD COLUMN track_key text GENERATED ALWAYS AS (
	CASE WHEN strpos(track_url, 'sig=') > 0 AND strpos(track_url, '?') > 0 THEN substr(track_url, 1, strpos(track_url, '?') - 1) ELSE track_url END) STORED;
--> statement-breakpoint

-- Roll-up tables (SQLite 0011, 0013, 0014; docs/decisions/029), column for column. Integers are
-- bigint as everywhere (times are milliseconds), real is double precision.
CREATE TABLE rollup_day_totals (
	day bigint NOT NULL, source text NOT NULL, device_type text NOT NULL,
	plays bigint NOT NULL, listen double precision NOT NULL, heard double precision NOT NULL, length double precision NOT NULL,
	completions bigint NOT NULL, skips bigint NOT NULL, session_plays bigint NOT NULL,
	liked bigint NOT NULL, shared bigint NOT NULL, repeated bigint NOT NULL,
	buffered bigint NOT NULL, dropped bigint NOT NULL, buffer_events bigint NOT NULL, drops bigint NOT NULL,
	PRIMARY KEY (day, source, device_type));
--> statement-breakpoint
CREATE TABLE rollup_day_hours (day bigint NOT NULL, hour bigint NOT NULL, plays bigint NOT NULL, PRIMARY KEY (day, hour));
--> statement-breakpoint
CREATE TABLE rollup_day_genres (day bigint NOT NULL, genre text NOT NULL, plays bigint NOT NULL, completions bigint NOT NULL, PRIMARY KEY (day, genre));
--> statement-breakpoint
CREATE TABLE rollup_day_places (day bigint NOT NULL, country text, region text, city text, plays bigint NOT NULL);
--> statement-breakpoint
CREATE INDEX rollup_day_places_idx ON rollup_day_places (day, country, region, city);
--> statement-breakpoint
CREATE TABLE rollup_place_users (country text, region text, city text,
	user_id text NOT NULL REFERENCES users(id) ON DELETE cascade, last_at bigint NOT NULL);
--> statement-breakpoint
CREATE INDEX rollup_place_users_idx ON rollup_place_users (user_id, country, region, city);
--> statement-breakpoint
CREATE TABLE rollup_day_users (user_id text NOT NULL REFERENCES users(id) ON DELETE cascade, day bigint NOT NULL,
	plays bigint NOT NULL, listen double precision NOT NULL, completions bigint NOT NULL,
	cum_plays bigint NOT NULL, cum_listen double precision NOT NULL, cum_completions bigint NOT NULL, cum_days bigint NOT NULL,
	PRIMARY KEY (user_id, day));
--> statement-breakpoint
CREATE INDEX rollup_day_users_day_idx ON rollup_day_users (day);
--> statement-breakpoint
CREATE TABLE rollup_user_last (user_id text PRIMARY KEY NOT NULL REFERENCES users(id) ON DELETE cascade, last_at bigint NOT NULL);
--> statement-breakpoint
CREATE INDEX rollup_user_last_idx ON rollup_user_last (last_at);
--> statement-breakpoint
CREATE TABLE rollup_track_last (track_key text PRIMARY KEY NOT NULL, last_at bigint NOT NULL);
--> statement-breakpoint
CREATE INDEX rollup_track_last_idx ON rollup_track_last (last_at);
--> statement-breakpoint
CREATE TABLE rollup_session_last (session_id text PRIMARY KEY NOT NULL, last_at bigint NOT NULL);
--> statement-breakpoint
CREATE INDEX rollup_session_last_idx ON rollup_session_last (last_at);
--> statement-breakpoint
CREATE TABLE rollup_user_tracks (user_id text NOT NULL REFERENCES users(id) ON DELETE cascade, track_key text NOT NULL,
	last_at bigint NOT NULL, liked_at bigint, PRIMARY KEY (user_id, track_key));
--> statement-breakpoint
CREATE TABLE rollup_day_playlists (day bigint NOT NULL, playlist_id text NOT NULL, plays bigint NOT NULL,
	completions bigint NOT NULL, listen double precision NOT NULL, PRIMARY KEY (day, playlist_id));
--> statement-breakpoint
CREATE TABLE rollup_playlist_users (playlist_id text NOT NULL, user_id text NOT NULL REFERENCES users(id) ON DELETE cascade,
	last_at bigint NOT NULL, PRIMARY KEY (playlist_id, user_id));
--> statement-breakpoint
CREATE INDEX rollup_playlist_users_user_idx ON rollup_playlist_users (user_id);
--> statement-breakpoint
CREATE TABLE rollup_playlist_tracks (playlist_id text NOT NULL, track_key text NOT NULL, last_at bigint NOT NULL,
	PRIMARY KEY (playlist_id, track_key));
--> statement-breakpoint
CREATE TABLE rollup_day_tracks (track_key text NOT NULL, day bigint NOT NULL, plays bigint NOT NULL, title text NOT NULL,
	artist text, last_at bigint NOT NULL, cum_plays bigint NOT NULL, PRIMARY KEY (track_key, day));
--> statement-breakpoint
CREATE TABLE rollup_hit_days (day bigint NOT NULL, page text NOT NULL, hits bigint NOT NULL, visitors bigint NOT NULL, PRIMARY KEY (day, page));
--> statement-breakpoint
CREATE TABLE rollup_hit_day_totals (day bigint PRIMARY KEY NOT NULL, hits bigint NOT NULL, visitors bigint NOT NULL);
--> statement-breakpoint
CREATE TABLE rollup_hit_visitors (visitor_hash text PRIMARY KEY NOT NULL, last_at bigint NOT NULL);
--> statement-breakpoint
CREATE INDEX rollup_hit_visitors_idx ON rollup_hit_visitors (last_at);
--> statement-breakpoint
CREATE TABLE rollup_hit_page_visitors (page text NOT NULL, visitor_hash text NOT NULL, last_at bigint NOT NULL, PRIMARY KEY (page, visitor_hash));
--> statement-breakpoint
CREATE INDEX rollup_hit_page_visitors_idx ON rollup_hit_page_visitors (page, last_at);
--> statement-breakpoint
CREATE TABLE rollup_country_users (country text NOT NULL, user_id text NOT NULL REFERENCES users(id) ON DELETE cascade,
	last_at bigint NOT NULL, PRIMARY KEY (country, user_id));
--> statement-breakpoint
CREATE INDEX rollup_country_users_idx ON rollup_country_users (country, last_at);
--> statement-breakpoint
CREATE TABLE rollup_region_users (country text, region text NOT NULL, user_id text NOT NULL REFERENCES users(id) ON DELETE cascade,
	last_at bigint NOT NULL);
--> statement-breakpoint
CREATE INDEX rollup_region_users_idx ON rollup_region_users (region, country, last_at);
--> statement-breakpoint
CREATE INDEX rollup_region_users_user_idx ON rollup_region_users (user_id, country, region);
--> statement-breakpoint
CREATE INDEX rollup_place_users_city_idx ON rollup_place_users (city, region, country, last_at);
--> statement-breakpoint

-- Roll-up triggers (SQLite 0011, 0013, 0014) in PL/pgSQL, statement for statement. What changes from
-- SQLite: max(a, b)/min(a, b) → greatest/least; `a IS b` → IS NOT DISTINCT FROM; booleans and
-- comparisons used as 0/1 are cast ::int; ON CONFLICT names the primary key and the SET clause names
-- the existing row by its table; INDEXED BY hints are dropped (the planner chooses). A play's figures
-- are added and taken out by two functions: SQLite's regroup trigger is its delete body then its
-- insert body, so here it calls one then the other.
-- One writer at a time, as on SQLite: several nodes may write plays and hits at once, and the roll-ups
-- read what earlier writes left (is this place's row there yet? was this visitor seen today? the
-- running totals of earlier days). Each trigger first takes one transaction-scoped advisory lock
-- ("viberoll" in ASCII), held to commit; its next statements then see what the previous holder committed.
CREATE FUNCTION rollup_play_add(n play_events) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO rollup_day_totals VALUES (n.started_at / 86400000, n.source, n.device_type, 1, n.listen_duration, (CASE WHEN n.duration > 0 THEN least(n.listen_duration, n.duration) ELSE 0 END), (CASE WHEN n.duration > 0 THEN n.duration ELSE 0 END),
		n.completed::int, n.skipped::int, (n.session_id IS NOT NULL)::int, n.liked::int, n.shared::int, n.repeated::int,
		(n.buffer_count > 0)::int, (n.quality_drops > 0)::int, n.buffer_count, n.quality_drops)
	ON CONFLICT (day, source, device_type) DO UPDATE SET plays = rollup_day_totals.plays + 1, listen = rollup_day_totals.listen + excluded.listen, heard = rollup_day_totals.heard + excluded.heard, length = rollup_day_totals.length + excluded.length,
		completions = rollup_day_totals.completions + excluded.completions, skips = rollup_day_totals.skips + excluded.skips, session_plays = rollup_day_totals.session_plays + excluded.session_plays,
		liked = rollup_day_totals.liked + excluded.liked, shared = rollup_day_totals.shared + excluded.shared, repeated = rollup_day_totals.repeated + excluded.repeated,
		buffered = rollup_day_totals.buffered + excluded.buffered, dropped = rollup_day_totals.dropped + excluded.dropped,
		buffer_events = rollup_day_totals.buffer_events + excluded.buffer_events, drops = rollup_day_totals.drops + excluded.drops;
	INSERT INTO rollup_day_hours VALUES (n.started_at / 86400000, (n.started_at / 3600000) % 24, 1) ON CONFLICT (day, hour) DO UPDATE SET plays = rollup_day_hours.plays + 1;
	INSERT INTO rollup_day_genres VALUES (n.started_at / 86400000, coalesce(nullif(trim(n.genre), ''), ''), 1, n.completed::int)
	ON CONFLICT (day, genre) DO UPDATE SET plays = rollup_day_genres.plays + 1, completions = rollup_day_genres.completions + excluded.completions;
	INSERT INTO rollup_day_places SELECT n.started_at / 86400000, n.country, n.region, n.city, 0
		WHERE (n.country IS NOT NULL OR n.region IS NOT NULL OR n.city IS NOT NULL) AND NOT EXISTS (SELECT 1 FROM rollup_day_places WHERE day = n.started_at / 86400000 AND country IS NOT DISTINCT FROM n.country AND region IS NOT DISTINCT FROM n.region AND city IS NOT DISTINCT FROM n.city);
	UPDATE rollup_day_places SET plays = plays + 1 WHERE day = n.started_at / 86400000 AND country IS NOT DISTINCT FROM n.country AND region IS NOT DISTINCT FROM n.region AND city IS NOT DISTINCT FROM n.city;
	INSERT INTO rollup_place_users SELECT n.country, n.region, n.city, n.user_id, n.started_at
		WHERE n.user_id IS NOT NULL AND (n.country IS NOT NULL OR n.region IS NOT NULL OR n.city IS NOT NULL) AND NOT EXISTS (SELECT 1 FROM rollup_place_users WHERE user_id = n.user_id AND country IS NOT DISTINCT FROM n.country AND region IS NOT DISTINCT FROM n.region AND city IS NOT DISTINCT FROM n.city);
	UPDATE rollup_place_users SET last_at = greatest(last_at, n.started_at) WHERE user_id = n.user_id AND country IS NOT DISTINCT FROM n.country AND region IS NOT DISTINCT FROM n.region AND city IS NOT DISTINCT FROM n.city;
	INSERT INTO rollup_day_users SELECT n.user_id, n.started_at / 86400000, 1, n.listen_duration, n.completed::int,
			coalesce(p.cum_plays, 0) + 1, coalesce(p.cum_listen, 0) + n.listen_duration, coalesce(p.cum_completions, 0) + n.completed::int, coalesce(p.cum_days, 0) + 1
		FROM (SELECT 1) AS one LEFT JOIN (SELECT * FROM rollup_day_users WHERE user_id = n.user_id AND day < n.started_at / 86400000 ORDER BY day DESC LIMIT 1) AS p ON true
		WHERE n.user_id IS NOT NULL
	ON CONFLICT (user_id, day) DO UPDATE SET plays = rollup_day_users.plays + 1, listen = rollup_day_users.listen + excluded.listen, completions = rollup_day_users.completions + excluded.completions,
		cum_plays = rollup_day_users.cum_plays + 1, cum_listen = rollup_day_users.cum_listen + excluded.listen, cum_completions = rollup_day_users.cum_completions + excluded.completions;
	UPDATE rollup_day_users SET cum_plays = cum_plays + 1, cum_listen = cum_listen + n.listen_duration, cum_completions = cum_completions + n.completed::int,
		cum_days = cum_days + ((SELECT plays FROM rollup_day_users WHERE user_id = n.user_id AND day = n.started_at / 86400000) = 1)::int
		WHERE user_id = n.user_id AND day > n.started_at / 86400000;
	INSERT INTO rollup_user_last SELECT n.user_id, n.started_at WHERE n.user_id IS NOT NULL
	ON CONFLICT (user_id) DO UPDATE SET last_at = greatest(rollup_user_last.last_at, excluded.last_at);
	INSERT INTO rollup_track_last VALUES (n.track_key, n.started_at) ON CONFLICT (track_key) DO UPDATE SET last_at = greatest(rollup_track_last.last_at, excluded.last_at);
	INSERT INTO rollup_session_last SELECT n.session_id, n.started_at WHERE n.session_id IS NOT NULL
	ON CONFLICT (session_id) DO UPDATE SET last_at = greatest(rollup_session_last.last_at, excluded.last_at);
	INSERT INTO rollup_user_tracks SELECT n.user_id, n.track_key, n.started_at, CASE WHEN n.liked THEN n.started_at END WHERE n.user_id IS NOT NULL
	ON CONFLICT (user_id, track_key) DO UPDATE SET last_at = greatest(rollup_user_tracks.last_at, excluded.last_at),
		liked_at = CASE WHEN excluded.liked_at IS NULL THEN rollup_user_tracks.liked_at ELSE greatest(coalesce(rollup_user_tracks.liked_at, excluded.liked_at), excluded.liked_at) END;
	INSERT INTO rollup_day_playlists SELECT n.started_at / 86400000, n.playlist_id, 1, n.completed::int, n.listen_duration WHERE n.playlist_id IS NOT NULL
	ON CONFLICT (day, playlist_id) DO UPDATE SET plays = rollup_day_playlists.plays + 1, completions = rollup_day_playlists.completions + excluded.completions, listen = rollup_day_playlists.listen + excluded.listen;
	INSERT INTO rollup_playlist_users SELECT n.playlist_id, n.user_id, n.started_at WHERE n.playlist_id IS NOT NULL AND n.user_id IS NOT NULL
	ON CONFLICT (playlist_id, user_id) DO UPDATE SET last_at = greatest(rollup_playlist_users.last_at, excluded.last_at);
	INSERT INTO rollup_playlist_tracks SELECT n.playlist_id, n.track_key, n.started_at WHERE n.playlist_id IS NOT NULL
	ON CONFLICT (playlist_id, track_key) DO UPDATE SET last_at = greatest(rollup_playlist_tracks.last_at, excluded.last_at);
	INSERT INTO rollup_day_tracks SELECT n.track_key, n.started_at / 86400000, 1, n.title, n.artist, n.started_at, coalesce(p.cum_plays, 0) + 1
		FROM (SELECT 1) AS one LEFT JOIN (SELECT cum_plays FROM rollup_day_tracks WHERE track_key = n.track_key AND day < n.started_at / 86400000 ORDER BY day DESC LIMIT 1) AS p ON true
		WHERE true
	ON CONFLICT (track_key, day) DO UPDATE SET plays = rollup_day_tracks.plays + 1, cum_plays = rollup_day_tracks.cum_plays + 1, title = greatest(rollup_day_tracks.title, excluded.title), last_at = greatest(rollup_day_tracks.last_at, excluded.last_at),
		artist = CASE WHEN excluded.artist IS NULL THEN rollup_day_tracks.artist WHEN rollup_day_tracks.artist IS NULL OR excluded.artist > rollup_day_tracks.artist THEN excluded.artist ELSE rollup_day_tracks.artist END;
	UPDATE rollup_day_tracks SET cum_plays = cum_plays + 1 WHERE track_key = n.track_key AND day > n.started_at / 86400000;
END
$$;
--> statement-breakpoint
CREATE FUNCTION rollup_play_remove(o play_events) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	UPDATE rollup_day_totals SET plays = plays - 1, listen = listen - o.listen_duration, heard = heard - (CASE WHEN o.duration > 0 THEN least(o.listen_duration, o.duration) ELSE 0 END), length = length - (CASE WHEN o.duration > 0 THEN o.duration ELSE 0 END),
		completions = completions - o.completed::int, skips = skips - o.skipped::int, session_plays = session_plays - (o.session_id IS NOT NULL)::int,
		liked = liked - o.liked::int, shared = shared - o.shared::int, repeated = repeated - o.repeated::int,
		buffered = buffered - (o.buffer_count > 0)::int, dropped = dropped - (o.quality_drops > 0)::int,
		buffer_events = buffer_events - o.buffer_count, drops = drops - o.quality_drops
		WHERE day = o.started_at / 86400000 AND source = o.source AND device_type = o.device_type;
	DELETE FROM rollup_day_totals WHERE day = o.started_at / 86400000 AND source = o.source AND device_type = o.device_type AND plays = 0;
	UPDATE rollup_day_hours SET plays = plays - 1 WHERE day = o.started_at / 86400000 AND hour = (o.started_at / 3600000) % 24;
	DELETE FROM rollup_day_hours WHERE day = o.started_at / 86400000 AND hour = (o.started_at / 3600000) % 24 AND plays = 0;
	UPDATE rollup_day_genres SET plays = plays - 1, completions = completions - o.completed::int WHERE day = o.started_at / 86400000 AND genre = coalesce(nullif(trim(o.genre), ''), '');
	DELETE FROM rollup_day_genres WHERE day = o.started_at / 86400000 AND genre = coalesce(nullif(trim(o.genre), ''), '') AND plays = 0;
	UPDATE rollup_day_places SET plays = plays - 1 WHERE day = o.started_at / 86400000 AND country IS NOT DISTINCT FROM o.country AND region IS NOT DISTINCT FROM o.region AND city IS NOT DISTINCT FROM o.city;
	DELETE FROM rollup_day_places WHERE day = o.started_at / 86400000 AND country IS NOT DISTINCT FROM o.country AND region IS NOT DISTINCT FROM o.region AND city IS NOT DISTINCT FROM o.city AND plays = 0;
	DELETE FROM rollup_place_users WHERE user_id = o.user_id AND country IS NOT DISTINCT FROM o.country AND region IS NOT DISTINCT FROM o.region AND city IS NOT DISTINCT FROM o.city AND NOT EXISTS (SELECT 1 FROM play_events WHERE user_id = o.user_id AND country IS NOT DISTINCT FROM o.country AND region IS NOT DISTINCT FROM o.region AND city IS NOT DISTINCT FROM o.city);
	UPDATE rollup_place_users SET last_at = (SELECT max(started_at) FROM play_events WHERE user_id = o.user_id AND country IS NOT DISTINCT FROM o.country AND region IS NOT DISTINCT FROM o.region AND city IS NOT DISTINCT FROM o.city) WHERE user_id = o.user_id AND country IS NOT DISTINCT FROM o.country AND region IS NOT DISTINCT FROM o.region AND city IS NOT DISTINCT FROM o.city AND last_at = o.started_at;
	UPDATE rollup_day_users SET plays = plays - 1, listen = listen - o.listen_duration, completions = completions - o.completed::int,
		cum_plays = cum_plays - 1, cum_listen = cum_listen - o.listen_duration, cum_completions = cum_completions - o.completed::int
		WHERE user_id = o.user_id AND day = o.started_at / 86400000;
	UPDATE rollup_day_users SET cum_plays = cum_plays - 1, cum_listen = cum_listen - o.listen_duration, cum_completions = cum_completions - o.completed::int,
		cum_days = cum_days - ((SELECT plays FROM rollup_day_users WHERE user_id = o.user_id AND day = o.started_at / 86400000) = 0)::int
		WHERE user_id = o.user_id AND day > o.started_at / 86400000;
	DELETE FROM rollup_day_users WHERE user_id = o.user_id AND day = o.started_at / 86400000 AND plays = 0;
	DELETE FROM rollup_user_last WHERE user_id = o.user_id AND NOT EXISTS (SELECT 1 FROM play_events WHERE user_id = o.user_id);
	UPDATE rollup_user_last SET last_at = (SELECT max(started_at) FROM play_events WHERE user_id = o.user_id) WHERE user_id = o.user_id AND last_at = o.started_at;
	DELETE FROM rollup_track_last WHERE track_key = o.track_key AND NOT EXISTS (SELECT 1 FROM play_events WHERE track_key = o.track_key);
	UPDATE rollup_track_last SET last_at = (SELECT max(started_at) FROM play_events WHERE track_key = o.track_key) WHERE track_key = o.track_key AND last_at = o.started_at;
	DELETE FROM rollup_session_last WHERE session_id = o.session_id AND NOT EXISTS (SELECT 1 FROM play_events WHERE session_id = o.session_id);
	UPDATE rollup_session_last SET last_at = (SELECT max(started_at) FROM play_events WHERE session_id = o.session_id) WHERE session_id = o.session_id AND last_at = o.started_at;
	DELETE FROM rollup_user_tracks WHERE user_id = o.user_id AND track_key = o.track_key AND NOT EXISTS (SELECT 1 FROM play_events WHERE user_id = o.user_id AND track_key = o.track_key);
	UPDATE rollup_user_tracks SET last_at = (SELECT max(started_at) FROM play_events WHERE user_id = o.user_id AND track_key = o.track_key) WHERE user_id = o.user_id AND track_key = o.track_key AND last_at = o.started_at;
	UPDATE rollup_user_tracks SET liked_at = (SELECT max(started_at) FROM play_events
			WHERE user_id = o.user_id AND liked AND track_key = o.track_key)
		WHERE o.liked AND user_id = o.user_id AND track_key = o.track_key;
	UPDATE rollup_day_playlists SET plays = plays - 1, completions = completions - o.completed::int, listen = listen - o.listen_duration
		WHERE day = o.started_at / 86400000 AND playlist_id = o.playlist_id;
	DELETE FROM rollup_day_playlists WHERE day = o.started_at / 86400000 AND playlist_id = o.playlist_id AND plays = 0;
	DELETE FROM rollup_playlist_users WHERE playlist_id = o.playlist_id AND user_id = o.user_id AND NOT EXISTS (SELECT 1 FROM play_events WHERE playlist_id = o.playlist_id AND user_id = o.user_id);
	UPDATE rollup_playlist_users SET last_at = (SELECT max(started_at) FROM play_events WHERE playlist_id = o.playlist_id AND user_id = o.user_id) WHERE playlist_id = o.playlist_id AND user_id = o.user_id AND last_at = o.started_at;
	DELETE FROM rollup_playlist_tracks WHERE playlist_id = o.playlist_id AND track_key = o.track_key AND NOT EXISTS (SELECT 1 FROM play_events WHERE playlist_id = o.playlist_id AND track_key = o.track_key);
	UPDATE rollup_playlist_tracks SET last_at = (SELECT max(started_at) FROM play_events WHERE playlist_id = o.playlist_id AND track_key = o.track_key) WHERE playlist_id = o.playlist_id AND track_key = o.track_key AND last_at = o.started_at;
	UPDATE rollup_day_tracks SET plays = plays - (day = o.started_at / 86400000)::int, cum_plays = cum_plays - 1 WHERE track_key = o.track_key AND day >= o.started_at / 86400000;
	DELETE FROM rollup_day_tracks WHERE day = o.started_at / 86400000 AND track_key = o.track_key AND plays = 0;
	UPDATE rollup_day_tracks SET
		title = (SELECT max(title) FROM play_events WHERE started_at >= o.started_at / 86400000 * 86400000 AND started_at < (o.started_at / 86400000 + 1) * 86400000 AND track_key = o.track_key),
		artist = (SELECT max(artist) FROM play_events WHERE started_at >= o.started_at / 86400000 * 86400000 AND started_at < (o.started_at / 86400000 + 1) * 86400000 AND track_key = o.track_key),
		last_at = (SELECT max(started_at) FROM play_events WHERE started_at >= o.started_at / 86400000 * 86400000 AND started_at < (o.started_at / 86400000 + 1) * 86400000 AND track_key = o.track_key)
		WHERE day = o.started_at / 86400000 AND track_key = o.track_key;
END
$$;
--> statement-breakpoint
CREATE FUNCTION rollup_play_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_advisory_xact_lock(8532459156881239148);
	PERFORM rollup_play_add(NEW);
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER rollup_play_insert AFTER INSERT ON play_events FOR EACH ROW EXECUTE FUNCTION rollup_play_insert();
--> statement-breakpoint
-- The player's updates (progress, like, share…) move each sum by new minus old.
CREATE FUNCTION rollup_play_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_advisory_xact_lock(8532459156881239148);
	UPDATE rollup_day_totals SET listen = listen + NEW.listen_duration - OLD.listen_duration, heard = heard + (CASE WHEN NEW.duration > 0 THEN least(NEW.listen_duration, NEW.duration) ELSE 0 END) - (CASE WHEN OLD.duration > 0 THEN least(OLD.listen_duration, OLD.duration) ELSE 0 END),
		completions = completions + NEW.completed::int - OLD.completed::int, skips = skips + NEW.skipped::int - OLD.skipped::int,
		liked = liked + NEW.liked::int - OLD.liked::int, shared = shared + NEW.shared::int - OLD.shared::int, repeated = repeated + NEW.repeated::int - OLD.repeated::int,
		buffered = buffered + (NEW.buffer_count > 0)::int - (OLD.buffer_count > 0)::int, dropped = dropped + (NEW.quality_drops > 0)::int - (OLD.quality_drops > 0)::int,
		buffer_events = buffer_events + NEW.buffer_count - OLD.buffer_count, drops = drops + NEW.quality_drops - OLD.quality_drops
		WHERE day = NEW.started_at / 86400000 AND source = NEW.source AND device_type = NEW.device_type;
	UPDATE rollup_day_genres SET completions = completions + NEW.completed::int - OLD.completed::int
		WHERE NEW.completed::int IS DISTINCT FROM OLD.completed::int AND day = NEW.started_at / 86400000 AND genre = coalesce(nullif(trim(NEW.genre), ''), '');
	UPDATE rollup_day_users SET
		listen = listen + CASE WHEN day = NEW.started_at / 86400000 THEN NEW.listen_duration - OLD.listen_duration ELSE 0 END,
		completions = completions + CASE WHEN day = NEW.started_at / 86400000 THEN NEW.completed::int - OLD.completed::int ELSE 0 END,
		cum_listen = cum_listen + NEW.listen_duration - OLD.listen_duration, cum_completions = cum_completions + NEW.completed::int - OLD.completed::int
		WHERE user_id = NEW.user_id AND day >= NEW.started_at / 86400000;
	UPDATE rollup_day_playlists SET listen = listen + NEW.listen_duration - OLD.listen_duration, completions = completions + NEW.completed::int - OLD.completed::int
		WHERE playlist_id = NEW.playlist_id AND day = NEW.started_at / 86400000;
	UPDATE rollup_user_tracks SET liked_at = (SELECT max(started_at) FROM play_events
			WHERE user_id = NEW.user_id AND liked AND track_key = NEW.track_key)
		WHERE NEW.liked::int IS DISTINCT FROM OLD.liked::int AND user_id = NEW.user_id AND track_key = NEW.track_key;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER rollup_play_update AFTER UPDATE OF listen_duration, completed, skipped, liked, shared, repeated, buffer_count, quality_drops ON play_events FOR EACH ROW
	WHEN (NEW.started_at IS NOT DISTINCT FROM OLD.started_at AND NEW.track_url IS NOT DISTINCT FROM OLD.track_url AND NEW.title IS NOT DISTINCT FROM OLD.title AND NEW.artist IS NOT DISTINCT FROM OLD.artist AND NEW.genre IS NOT DISTINCT FROM OLD.genre AND NEW.duration IS NOT DISTINCT FROM OLD.duration AND NEW.source IS NOT DISTINCT FROM OLD.source AND NEW.device_type IS NOT DISTINCT FROM OLD.device_type AND NEW.playlist_id IS NOT DISTINCT FROM OLD.playlist_id AND NEW.session_id IS NOT DISTINCT FROM OLD.session_id AND NEW.country IS NOT DISTINCT FROM OLD.country AND NEW.region IS NOT DISTINCT FROM OLD.region AND NEW.city IS NOT DISTINCT FROM OLD.city) EXECUTE FUNCTION rollup_play_update();
--> statement-breakpoint
-- A play moved in time or regrouped: the old row out, the new one in (all its figures).
CREATE FUNCTION rollup_play_regroup() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_advisory_xact_lock(8532459156881239148);
	PERFORM rollup_play_remove(OLD);
	PERFORM rollup_play_add(NEW);
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER rollup_play_regroup AFTER UPDATE OF started_at, track_url, title, artist, genre, duration, source, device_type, playlist_id, session_id, country, region, city ON play_events FOR EACH ROW
	WHEN (NOT (NEW.started_at IS NOT DISTINCT FROM OLD.started_at AND NEW.track_url IS NOT DISTINCT FROM OLD.track_url AND NEW.title IS NOT DISTINCT FROM OLD.title AND NEW.artist IS NOT DISTINCT FROM OLD.artist AND NEW.genre IS NOT DISTINCT FROM OLD.genre AND NEW.duration IS NOT DISTINCT FROM OLD.duration AND NEW.source IS NOT DISTINCT FROM OLD.source AND NEW.device_type IS NOT DISTINCT FROM OLD.device_type AND NEW.playlist_id IS NOT DISTINCT FROM OLD.playlist_id AND NEW.session_id IS NOT DISTINCT FROM OLD.session_id AND NEW.country IS NOT DISTINCT FROM OLD.country AND NEW.region IS NOT DISTINCT FROM OLD.region AND NEW.city IS NOT DISTINCT FROM OLD.city)) EXECUTE FUNCTION rollup_play_regroup();
--> statement-breakpoint
CREATE FUNCTION rollup_play_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_advisory_xact_lock(8532459156881239148);
	PERFORM rollup_play_remove(OLD);
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER rollup_play_delete AFTER DELETE ON play_events FOR EACH ROW EXECUTE FUNCTION rollup_play_delete();
--> statement-breakpoint
-- "Another hit of this visitor that day" is one inserted before this one (a smaller id): SQLite runs
-- the trigger after each row, PostgreSQL after the whole statement, when a batch's later rows are
-- already visible.
CREATE FUNCTION rollup_page_hits_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_advisory_xact_lock(8532459156881239148);
	INSERT INTO rollup_hit_days VALUES (NEW.created_at / 86400000, NEW.page, 1,
		(NOT EXISTS (SELECT 1 FROM page_hits WHERE page = NEW.page AND visitor_hash = NEW.visitor_hash AND id < NEW.id
			AND created_at >= NEW.created_at / 86400000 * 86400000 AND created_at < (NEW.created_at / 86400000 + 1) * 86400000))::int)
	ON CONFLICT (day, page) DO UPDATE SET hits = rollup_hit_days.hits + 1, visitors = rollup_hit_days.visitors + excluded.visitors;
	INSERT INTO rollup_hit_day_totals VALUES (NEW.created_at / 86400000, 1,
		(NOT EXISTS (SELECT 1 FROM page_hits WHERE visitor_hash = NEW.visitor_hash AND id < NEW.id
			AND created_at >= NEW.created_at / 86400000 * 86400000 AND created_at < (NEW.created_at / 86400000 + 1) * 86400000))::int)
	ON CONFLICT (day) DO UPDATE SET hits = rollup_hit_day_totals.hits + 1, visitors = rollup_hit_day_totals.visitors + excluded.visitors;
	INSERT INTO rollup_hit_visitors VALUES (NEW.visitor_hash, NEW.created_at) ON CONFLICT (visitor_hash) DO UPDATE SET last_at = greatest(rollup_hit_visitors.last_at, excluded.last_at);
	INSERT INTO rollup_hit_page_visitors VALUES (NEW.page, NEW.visitor_hash, NEW.created_at) ON CONFLICT (page, visitor_hash) DO UPDATE SET last_at = greatest(rollup_hit_page_visitors.last_at, excluded.last_at);
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER rollup_page_hits_insert AFTER INSERT ON page_hits FOR EACH ROW EXECUTE FUNCTION rollup_page_hits_insert();
--> statement-breakpoint
CREATE FUNCTION rollup_place_users_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO rollup_country_users SELECT NEW.country, NEW.user_id, NEW.last_at WHERE NEW.country IS NOT NULL
	ON CONFLICT (country, user_id) DO UPDATE SET last_at = greatest(rollup_country_users.last_at, excluded.last_at);
	INSERT INTO rollup_region_users SELECT NEW.country, NEW.region, NEW.user_id, NEW.last_at
		WHERE NEW.region IS NOT NULL AND NOT EXISTS (SELECT 1 FROM rollup_region_users WHERE user_id = NEW.user_id AND country IS NOT DISTINCT FROM NEW.country AND region = NEW.region);
	UPDATE rollup_region_users SET last_at = greatest(last_at, NEW.last_at) WHERE user_id = NEW.user_id AND country IS NOT DISTINCT FROM NEW.country AND region = NEW.region;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER rollup_place_users_insert AFTER INSERT ON rollup_place_users FOR EACH ROW EXECUTE FUNCTION rollup_place_users_insert();
--> statement-breakpoint
CREATE FUNCTION rollup_place_users_later() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE rollup_country_users SET last_at = greatest(last_at, NEW.last_at) WHERE country = NEW.country AND user_id = NEW.user_id;
	UPDATE rollup_region_users SET last_at = greatest(last_at, NEW.last_at) WHERE user_id = NEW.user_id AND country IS NOT DISTINCT FROM NEW.country AND region = NEW.region;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER rollup_place_users_later AFTER UPDATE OF last_at ON rollup_place_users FOR EACH ROW
	WHEN (NEW.last_at > OLD.last_at) EXECUTE FUNCTION rollup_place_users_later();
--> statement-breakpoint
CREATE FUNCTION rollup_place_users_earlier() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE rollup_country_users SET last_at = (SELECT max(last_at) FROM rollup_place_users WHERE user_id = NEW.user_id AND country = NEW.country)
		WHERE country = NEW.country AND user_id = NEW.user_id;
	UPDATE rollup_region_users SET last_at = (SELECT max(last_at) FROM rollup_place_users WHERE user_id = NEW.user_id AND country IS NOT DISTINCT FROM NEW.country AND region = NEW.region)
		WHERE user_id = NEW.user_id AND country IS NOT DISTINCT FROM NEW.country AND region = NEW.region;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER rollup_place_users_earlier AFTER UPDATE OF last_at ON rollup_place_users FOR EACH ROW
	WHEN (NEW.last_at < OLD.last_at) EXECUTE FUNCTION rollup_place_users_earlier();
--> statement-breakpoint
CREATE FUNCTION rollup_place_users_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM rollup_country_users WHERE country = OLD.country AND user_id = OLD.user_id
		AND NOT EXISTS (SELECT 1 FROM rollup_place_users WHERE user_id = OLD.user_id AND country = OLD.country);
	UPDATE rollup_country_users SET last_at = (SELECT max(last_at) FROM rollup_place_users WHERE user_id = OLD.user_id AND country = OLD.country)
		WHERE country = OLD.country AND user_id = OLD.user_id;
	DELETE FROM rollup_region_users WHERE user_id = OLD.user_id AND country IS NOT DISTINCT FROM OLD.country AND region = OLD.region
		AND NOT EXISTS (SELECT 1 FROM rollup_place_users WHERE user_id = OLD.user_id AND country IS NOT DISTINCT FROM OLD.country AND region = OLD.region);
	UPDATE rollup_region_users SET last_at = (SELECT max(last_at) FROM rollup_place_users WHERE user_id = OLD.user_id AND country IS NOT DISTINCT FROM OLD.country AND region = OLD.region)
		WHERE user_id = OLD.user_id AND country IS NOT DISTINCT FROM OLD.country AND region = OLD.region;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER rollup_place_users_delete AFTER DELETE ON rollup_place_users FOR EACH ROW EXECUTE FUNCTION rollup_place_users_delete();
