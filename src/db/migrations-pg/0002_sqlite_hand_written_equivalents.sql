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
