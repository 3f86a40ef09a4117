-- Analytics roll-ups (docs/decisions/029): per-day aggregates of play_events kept by the
-- triggers below in the same transaction as each insert, update or delete, so the admin analytics read
-- a few thousand rows instead of a million. Rolling periods have no upper bound (started_at >= from),
-- so a distinct count over a period is exact from "last seen" tables: a key played since `from` is one
-- whose latest play is at or after `from`. Tables keyed by a member cascade with the member, as their
-- plays stop naming them (ON DELETE SET NULL).
-- The player's updates (progress, completion, likes, buffering) move sums by new minus old. An update
-- of a column the roll-ups group by (a play moved in time, retagged…; never done by the app) and a
-- delete take the old row out (recomputing a "last seen" time only when the old row was the latest)
-- and put the new one in. play_events.track_key is the analytics' track identity (docs/analytics.md).
ALTER TABLE `play_events` ADD COLUMN `track_key` text GENERATED ALWAYS AS (CASE WHEN instr(track_url, 'sig=') > 0 AND instr(track_url, '?') > 0 THEN substr(track_url, 1, instr(track_url, '?') - 1) ELSE track_url END) VIRTUAL
--> statement-breakpoint
CREATE TABLE `rollup_day_totals` (
	`day` integer NOT NULL, `source` text NOT NULL, `device_type` text NOT NULL,
	`plays` integer NOT NULL, `listen` real NOT NULL, `heard` real NOT NULL, `length` real NOT NULL,
	`completions` integer NOT NULL, `skips` integer NOT NULL, `session_plays` integer NOT NULL,
	`liked` integer NOT NULL, `shared` integer NOT NULL, `repeated` integer NOT NULL,
	`buffered` integer NOT NULL, `dropped` integer NOT NULL, `buffer_events` integer NOT NULL, `drops` integer NOT NULL,
	PRIMARY KEY (`day`, `source`, `device_type`)
) WITHOUT ROWID
--> statement-breakpoint
CREATE TABLE `rollup_day_hours` (`day` integer NOT NULL, `hour` integer NOT NULL, `plays` integer NOT NULL, PRIMARY KEY (`day`, `hour`)) WITHOUT ROWID
--> statement-breakpoint
-- genre '' stands for "no genre tag" (NULL or blank, which the analytics show as Unknown).
CREATE TABLE `rollup_day_genres` (`day` integer NOT NULL, `genre` text NOT NULL, `plays` integer NOT NULL, `completions` integer NOT NULL, PRIMARY KEY (`day`, `genre`)) WITHOUT ROWID
--> statement-breakpoint
-- Places keep NULL parts (a country without a city), so rows are found with IS rather than upserted.
CREATE TABLE `rollup_day_places` (`day` integer NOT NULL, `country` text, `region` text, `city` text, `plays` integer NOT NULL)
--> statement-breakpoint
CREATE INDEX `rollup_day_places_idx` ON `rollup_day_places` (`day`, `country`, `region`, `city`)
--> statement-breakpoint
CREATE TABLE `rollup_place_users` (`country` text, `region` text, `city` text,
	`user_id` text NOT NULL REFERENCES `users`(`id`) ON DELETE cascade, `last_at` integer NOT NULL)
--> statement-breakpoint
CREATE INDEX `rollup_place_users_idx` ON `rollup_place_users` (`user_id`, `country`, `region`, `city`)
--> statement-breakpoint
-- cum_*: the member's running totals up to and including that day, so their figures over any period are
-- two index seeks (the latest row minus the last row before the period), whatever its length.
CREATE TABLE `rollup_day_users` (`user_id` text NOT NULL REFERENCES `users`(`id`) ON DELETE cascade, `day` integer NOT NULL,
	`plays` integer NOT NULL, `listen` real NOT NULL, `completions` integer NOT NULL,
	`cum_plays` integer NOT NULL, `cum_listen` real NOT NULL, `cum_completions` integer NOT NULL, `cum_days` integer NOT NULL,
	PRIMARY KEY (`user_id`, `day`)) WITHOUT ROWID
--> statement-breakpoint
CREATE INDEX `rollup_day_users_day_idx` ON `rollup_day_users` (`day`)
--> statement-breakpoint
CREATE TABLE `rollup_user_last` (`user_id` text PRIMARY KEY NOT NULL REFERENCES `users`(`id`) ON DELETE cascade, `last_at` integer NOT NULL) WITHOUT ROWID
--> statement-breakpoint
CREATE INDEX `rollup_user_last_idx` ON `rollup_user_last` (`last_at`)
--> statement-breakpoint
CREATE TABLE `rollup_track_last` (`track_key` text PRIMARY KEY NOT NULL, `last_at` integer NOT NULL) WITHOUT ROWID
--> statement-breakpoint
CREATE INDEX `rollup_track_last_idx` ON `rollup_track_last` (`last_at`)
--> statement-breakpoint
CREATE TABLE `rollup_session_last` (`session_id` text PRIMARY KEY NOT NULL, `last_at` integer NOT NULL) WITHOUT ROWID
--> statement-breakpoint
CREATE INDEX `rollup_session_last_idx` ON `rollup_session_last` (`last_at`)
--> statement-breakpoint
-- liked_at: the latest play of that track the member liked (NULL: none liked).
CREATE TABLE `rollup_user_tracks` (`user_id` text NOT NULL REFERENCES `users`(`id`) ON DELETE cascade, `track_key` text NOT NULL,
	`last_at` integer NOT NULL, `liked_at` integer, PRIMARY KEY (`user_id`, `track_key`)) WITHOUT ROWID
--> statement-breakpoint
CREATE TABLE `rollup_day_playlists` (`day` integer NOT NULL, `playlist_id` text NOT NULL, `plays` integer NOT NULL,
	`completions` integer NOT NULL, `listen` real NOT NULL, PRIMARY KEY (`day`, `playlist_id`)) WITHOUT ROWID
--> statement-breakpoint
CREATE TABLE `rollup_playlist_users` (`playlist_id` text NOT NULL, `user_id` text NOT NULL REFERENCES `users`(`id`) ON DELETE cascade,
	`last_at` integer NOT NULL, PRIMARY KEY (`playlist_id`, `user_id`)) WITHOUT ROWID
--> statement-breakpoint
CREATE INDEX `rollup_playlist_users_user_idx` ON `rollup_playlist_users` (`user_id`)
--> statement-breakpoint
CREATE TABLE `rollup_playlist_tracks` (`playlist_id` text NOT NULL, `track_key` text NOT NULL, `last_at` integer NOT NULL,
	PRIMARY KEY (`playlist_id`, `track_key`)) WITHOUT ROWID
--> statement-breakpoint
-- title / artist: the greatest seen that day (max() over the period is the max of the days');
-- cum_plays: the track's running play count up to and including that day (see rollup_day_users).
CREATE TABLE `rollup_day_tracks` (`track_key` text NOT NULL, `day` integer NOT NULL, `plays` integer NOT NULL, `title` text NOT NULL,
	`artist` text, `last_at` integer NOT NULL, `cum_plays` integer NOT NULL, PRIMARY KEY (`track_key`, `day`)) WITHOUT ROWID
--> statement-breakpoint
CREATE TRIGGER `rollup_play_insert` AFTER INSERT ON `play_events` BEGIN
	INSERT INTO rollup_day_totals VALUES (NEW.started_at / 86400000, NEW.source, NEW.device_type, 1, NEW.listen_duration, (CASE WHEN NEW.duration > 0 THEN min(NEW.listen_duration, NEW.duration) ELSE 0 END), (CASE WHEN NEW.duration > 0 THEN NEW.duration ELSE 0 END),
		NEW.completed, NEW.skipped, NEW.session_id IS NOT NULL, NEW.liked, NEW.shared, NEW.repeated,
		NEW.buffer_count > 0, NEW.quality_drops > 0, NEW.buffer_count, NEW.quality_drops)
	ON CONFLICT DO UPDATE SET plays = plays + 1, listen = listen + excluded.listen, heard = heard + excluded.heard, length = length + excluded.length,
		completions = completions + excluded.completions, skips = skips + excluded.skips, session_plays = session_plays + excluded.session_plays,
		liked = liked + excluded.liked, shared = shared + excluded.shared, repeated = repeated + excluded.repeated,
		buffered = buffered + excluded.buffered, dropped = dropped + excluded.dropped,
		buffer_events = buffer_events + excluded.buffer_events, drops = drops + excluded.drops;
	INSERT INTO rollup_day_hours VALUES (NEW.started_at / 86400000, (NEW.started_at / 3600000) % 24, 1) ON CONFLICT DO UPDATE SET plays = plays + 1;
	INSERT INTO rollup_day_genres VALUES (NEW.started_at / 86400000, coalesce(nullif(trim(NEW.genre), ''), ''), 1, NEW.completed)
	ON CONFLICT DO UPDATE SET plays = plays + 1, completions = completions + excluded.completions;
	INSERT INTO rollup_day_places SELECT NEW.started_at / 86400000, NEW.country, NEW.region, NEW.city, 0
		WHERE (NEW.country IS NOT NULL OR NEW.region IS NOT NULL OR NEW.city IS NOT NULL) AND NOT EXISTS (SELECT 1 FROM rollup_day_places WHERE day = NEW.started_at / 86400000 AND country IS NEW.country AND region IS NEW.region AND city IS NEW.city);
	UPDATE rollup_day_places SET plays = plays + 1 WHERE day = NEW.started_at / 86400000 AND country IS NEW.country AND region IS NEW.region AND city IS NEW.city;
	INSERT INTO rollup_place_users SELECT NEW.country, NEW.region, NEW.city, NEW.user_id, NEW.started_at
		WHERE NEW.user_id IS NOT NULL AND (NEW.country IS NOT NULL OR NEW.region IS NOT NULL OR NEW.city IS NOT NULL) AND NOT EXISTS (SELECT 1 FROM rollup_place_users WHERE user_id = NEW.user_id AND country IS NEW.country AND region IS NEW.region AND city IS NEW.city);
	UPDATE rollup_place_users SET last_at = max(last_at, NEW.started_at) WHERE user_id = NEW.user_id AND country IS NEW.country AND region IS NEW.region AND city IS NEW.city;
	INSERT INTO rollup_day_users SELECT NEW.user_id, NEW.started_at / 86400000, 1, NEW.listen_duration, NEW.completed,
			coalesce(p.cum_plays, 0) + 1, coalesce(p.cum_listen, 0) + NEW.listen_duration, coalesce(p.cum_completions, 0) + NEW.completed, coalesce(p.cum_days, 0) + 1
		FROM (SELECT 1) LEFT JOIN (SELECT * FROM rollup_day_users WHERE user_id = NEW.user_id AND day < NEW.started_at / 86400000 ORDER BY day DESC LIMIT 1) AS p
		WHERE NEW.user_id IS NOT NULL
	ON CONFLICT DO UPDATE SET plays = plays + 1, listen = listen + excluded.listen, completions = completions + excluded.completions,
		cum_plays = cum_plays + 1, cum_listen = cum_listen + excluded.listen, cum_completions = cum_completions + excluded.completions;
	UPDATE rollup_day_users SET cum_plays = cum_plays + 1, cum_listen = cum_listen + NEW.listen_duration, cum_completions = cum_completions + NEW.completed,
		cum_days = cum_days + ((SELECT plays FROM rollup_day_users WHERE user_id = NEW.user_id AND day = NEW.started_at / 86400000) = 1)
		WHERE user_id = NEW.user_id AND day > NEW.started_at / 86400000;
	INSERT INTO rollup_user_last SELECT NEW.user_id, NEW.started_at WHERE NEW.user_id IS NOT NULL
	ON CONFLICT DO UPDATE SET last_at = max(last_at, excluded.last_at);
	INSERT INTO rollup_track_last VALUES (NEW.track_key, NEW.started_at) ON CONFLICT DO UPDATE SET last_at = max(last_at, excluded.last_at);
	INSERT INTO rollup_session_last SELECT NEW.session_id, NEW.started_at WHERE NEW.session_id IS NOT NULL
	ON CONFLICT DO UPDATE SET last_at = max(last_at, excluded.last_at);
	INSERT INTO rollup_user_tracks SELECT NEW.user_id, NEW.track_key, NEW.started_at, CASE WHEN NEW.liked THEN NEW.started_at END WHERE NEW.user_id IS NOT NULL
	ON CONFLICT DO UPDATE SET last_at = max(last_at, excluded.last_at),
		liked_at = CASE WHEN excluded.liked_at IS NULL THEN liked_at ELSE max(coalesce(liked_at, excluded.liked_at), excluded.liked_at) END;
	INSERT INTO rollup_day_playlists SELECT NEW.started_at / 86400000, NEW.playlist_id, 1, NEW.completed, NEW.listen_duration WHERE NEW.playlist_id IS NOT NULL
	ON CONFLICT DO UPDATE SET plays = plays + 1, completions = completions + excluded.completions, listen = listen + excluded.listen;
	INSERT INTO rollup_playlist_users SELECT NEW.playlist_id, NEW.user_id, NEW.started_at WHERE NEW.playlist_id IS NOT NULL AND NEW.user_id IS NOT NULL
	ON CONFLICT DO UPDATE SET last_at = max(last_at, excluded.last_at);
	INSERT INTO rollup_playlist_tracks SELECT NEW.playlist_id, NEW.track_key, NEW.started_at WHERE NEW.playlist_id IS NOT NULL
	ON CONFLICT DO UPDATE SET last_at = max(last_at, excluded.last_at);
	INSERT INTO rollup_day_tracks SELECT NEW.track_key, NEW.started_at / 86400000, 1, NEW.title, NEW.artist, NEW.started_at, coalesce(p.cum_plays, 0) + 1
		FROM (SELECT 1) LEFT JOIN (SELECT cum_plays FROM rollup_day_tracks WHERE track_key = NEW.track_key AND day < NEW.started_at / 86400000 ORDER BY day DESC LIMIT 1) AS p
		WHERE true
	ON CONFLICT DO UPDATE SET plays = plays + 1, cum_plays = cum_plays + 1, title = max(title, excluded.title), last_at = max(last_at, excluded.last_at),
		artist = CASE WHEN excluded.artist IS NULL THEN artist WHEN artist IS NULL OR excluded.artist > artist THEN excluded.artist ELSE artist END;
	UPDATE rollup_day_tracks SET cum_plays = cum_plays + 1 WHERE track_key = NEW.track_key AND day > NEW.started_at / 86400000;
END
--> statement-breakpoint
-- The player's updates (progress, like, share…) move each sum by new minus old.
CREATE TRIGGER `rollup_play_update` AFTER UPDATE OF listen_duration, completed, skipped, liked, shared, repeated, buffer_count, quality_drops ON `play_events`
WHEN NEW.started_at IS OLD.started_at AND NEW.track_url IS OLD.track_url AND NEW.title IS OLD.title AND NEW.artist IS OLD.artist AND NEW.genre IS OLD.genre AND NEW.duration IS OLD.duration AND NEW.source IS OLD.source AND NEW.device_type IS OLD.device_type AND NEW.playlist_id IS OLD.playlist_id AND NEW.session_id IS OLD.session_id AND NEW.country IS OLD.country AND NEW.region IS OLD.region AND NEW.city IS OLD.city BEGIN
	UPDATE rollup_day_totals SET listen = listen + NEW.listen_duration - OLD.listen_duration, heard = heard + (CASE WHEN NEW.duration > 0 THEN min(NEW.listen_duration, NEW.duration) ELSE 0 END) - (CASE WHEN OLD.duration > 0 THEN min(OLD.listen_duration, OLD.duration) ELSE 0 END),
		completions = completions + NEW.completed - OLD.completed, skips = skips + NEW.skipped - OLD.skipped,
		liked = liked + NEW.liked - OLD.liked, shared = shared + NEW.shared - OLD.shared, repeated = repeated + NEW.repeated - OLD.repeated,
		buffered = buffered + (NEW.buffer_count > 0) - (OLD.buffer_count > 0), dropped = dropped + (NEW.quality_drops > 0) - (OLD.quality_drops > 0),
		buffer_events = buffer_events + NEW.buffer_count - OLD.buffer_count, drops = drops + NEW.quality_drops - OLD.quality_drops
		WHERE day = NEW.started_at / 86400000 AND source = NEW.source AND device_type = NEW.device_type;
	UPDATE rollup_day_genres SET completions = completions + NEW.completed - OLD.completed
		WHERE NEW.completed IS NOT OLD.completed AND day = NEW.started_at / 86400000 AND genre = coalesce(nullif(trim(NEW.genre), ''), '');
	UPDATE rollup_day_users SET
		listen = listen + CASE WHEN day = NEW.started_at / 86400000 THEN NEW.listen_duration - OLD.listen_duration ELSE 0 END,
		completions = completions + CASE WHEN day = NEW.started_at / 86400000 THEN NEW.completed - OLD.completed ELSE 0 END,
		cum_listen = cum_listen + NEW.listen_duration - OLD.listen_duration, cum_completions = cum_completions + NEW.completed - OLD.completed
		WHERE user_id = NEW.user_id AND day >= NEW.started_at / 86400000;
	UPDATE rollup_day_playlists SET listen = listen + NEW.listen_duration - OLD.listen_duration, completions = completions + NEW.completed - OLD.completed
		WHERE playlist_id = NEW.playlist_id AND day = NEW.started_at / 86400000;
	UPDATE rollup_user_tracks SET liked_at = (SELECT max(started_at) FROM play_events INDEXED BY play_events_user_started_idx
			WHERE user_id = NEW.user_id AND liked = 1 AND track_key = NEW.track_key)
		WHERE NEW.liked IS NOT OLD.liked AND user_id = NEW.user_id AND track_key = NEW.track_key;
END
--> statement-breakpoint
-- A play moved in time or regrouped: the old row out, the new one in (all its figures).
CREATE TRIGGER `rollup_play_regroup` AFTER UPDATE OF started_at, track_url, title, artist, genre, duration, source, device_type, playlist_id, session_id, country, region, city ON `play_events`
WHEN NOT (NEW.started_at IS OLD.started_at AND NEW.track_url IS OLD.track_url AND NEW.title IS OLD.title AND NEW.artist IS OLD.artist AND NEW.genre IS OLD.genre AND NEW.duration IS OLD.duration AND NEW.source IS OLD.source AND NEW.device_type IS OLD.device_type AND NEW.playlist_id IS OLD.playlist_id AND NEW.session_id IS OLD.session_id AND NEW.country IS OLD.country AND NEW.region IS OLD.region AND NEW.city IS OLD.city) BEGIN
	UPDATE rollup_day_totals SET plays = plays - 1, listen = listen - OLD.listen_duration, heard = heard - (CASE WHEN OLD.duration > 0 THEN min(OLD.listen_duration, OLD.duration) ELSE 0 END), length = length - (CASE WHEN OLD.duration > 0 THEN OLD.duration ELSE 0 END),
		completions = completions - OLD.completed, skips = skips - OLD.skipped, session_plays = session_plays - (OLD.session_id IS NOT NULL),
		liked = liked - OLD.liked, shared = shared - OLD.shared, repeated = repeated - OLD.repeated,
		buffered = buffered - (OLD.buffer_count > 0), dropped = dropped - (OLD.quality_drops > 0),
		buffer_events = buffer_events - OLD.buffer_count, drops = drops - OLD.quality_drops
		WHERE day = OLD.started_at / 86400000 AND source = OLD.source AND device_type = OLD.device_type;
	DELETE FROM rollup_day_totals WHERE day = OLD.started_at / 86400000 AND source = OLD.source AND device_type = OLD.device_type AND plays = 0;
	UPDATE rollup_day_hours SET plays = plays - 1 WHERE day = OLD.started_at / 86400000 AND hour = (OLD.started_at / 3600000) % 24;
	DELETE FROM rollup_day_hours WHERE day = OLD.started_at / 86400000 AND hour = (OLD.started_at / 3600000) % 24 AND plays = 0;
	UPDATE rollup_day_genres SET plays = plays - 1, completions = completions - OLD.completed WHERE day = OLD.started_at / 86400000 AND genre = coalesce(nullif(trim(OLD.genre), ''), '');
	DELETE FROM rollup_day_genres WHERE day = OLD.started_at / 86400000 AND genre = coalesce(nullif(trim(OLD.genre), ''), '') AND plays = 0;
	UPDATE rollup_day_places SET plays = plays - 1 WHERE day = OLD.started_at / 86400000 AND country IS OLD.country AND region IS OLD.region AND city IS OLD.city;
	DELETE FROM rollup_day_places WHERE day = OLD.started_at / 86400000 AND country IS OLD.country AND region IS OLD.region AND city IS OLD.city AND plays = 0;
	DELETE FROM rollup_place_users WHERE user_id = OLD.user_id AND country IS OLD.country AND region IS OLD.region AND city IS OLD.city AND NOT EXISTS (SELECT 1 FROM play_events INDEXED BY play_events_user_started_idx WHERE user_id = OLD.user_id AND country IS OLD.country AND region IS OLD.region AND city IS OLD.city);
	UPDATE rollup_place_users SET last_at = (SELECT max(started_at) FROM play_events INDEXED BY play_events_user_started_idx WHERE user_id = OLD.user_id AND country IS OLD.country AND region IS OLD.region AND city IS OLD.city) WHERE user_id = OLD.user_id AND country IS OLD.country AND region IS OLD.region AND city IS OLD.city AND last_at = OLD.started_at;
	UPDATE rollup_day_users SET plays = plays - 1, listen = listen - OLD.listen_duration, completions = completions - OLD.completed,
		cum_plays = cum_plays - 1, cum_listen = cum_listen - OLD.listen_duration, cum_completions = cum_completions - OLD.completed
		WHERE user_id = OLD.user_id AND day = OLD.started_at / 86400000;
	UPDATE rollup_day_users SET cum_plays = cum_plays - 1, cum_listen = cum_listen - OLD.listen_duration, cum_completions = cum_completions - OLD.completed,
		cum_days = cum_days - ((SELECT plays FROM rollup_day_users WHERE user_id = OLD.user_id AND day = OLD.started_at / 86400000) = 0)
		WHERE user_id = OLD.user_id AND day > OLD.started_at / 86400000;
	DELETE FROM rollup_day_users WHERE user_id = OLD.user_id AND day = OLD.started_at / 86400000 AND plays = 0;
	DELETE FROM rollup_user_last WHERE user_id = OLD.user_id AND NOT EXISTS (SELECT 1 FROM play_events WHERE user_id = OLD.user_id);
	UPDATE rollup_user_last SET last_at = (SELECT max(started_at) FROM play_events WHERE user_id = OLD.user_id) WHERE user_id = OLD.user_id AND last_at = OLD.started_at;
	DELETE FROM rollup_track_last WHERE track_key = OLD.track_key AND NOT EXISTS (SELECT 1 FROM play_events WHERE track_key = OLD.track_key);
	UPDATE rollup_track_last SET last_at = (SELECT max(started_at) FROM play_events WHERE track_key = OLD.track_key) WHERE track_key = OLD.track_key AND last_at = OLD.started_at;
	DELETE FROM rollup_session_last WHERE session_id = OLD.session_id AND NOT EXISTS (SELECT 1 FROM play_events WHERE session_id = OLD.session_id);
	UPDATE rollup_session_last SET last_at = (SELECT max(started_at) FROM play_events WHERE session_id = OLD.session_id) WHERE session_id = OLD.session_id AND last_at = OLD.started_at;
	DELETE FROM rollup_user_tracks WHERE user_id = OLD.user_id AND track_key = OLD.track_key AND NOT EXISTS (SELECT 1 FROM play_events INDEXED BY play_events_user_started_idx WHERE user_id = OLD.user_id AND track_key = OLD.track_key);
	UPDATE rollup_user_tracks SET last_at = (SELECT max(started_at) FROM play_events INDEXED BY play_events_user_started_idx WHERE user_id = OLD.user_id AND track_key = OLD.track_key) WHERE user_id = OLD.user_id AND track_key = OLD.track_key AND last_at = OLD.started_at;
	UPDATE rollup_user_tracks SET liked_at = (SELECT max(started_at) FROM play_events INDEXED BY play_events_user_started_idx
			WHERE user_id = OLD.user_id AND liked = 1 AND track_key = OLD.track_key)
		WHERE OLD.liked = 1 AND user_id = OLD.user_id AND track_key = OLD.track_key;
	UPDATE rollup_day_playlists SET plays = plays - 1, completions = completions - OLD.completed, listen = listen - OLD.listen_duration
		WHERE day = OLD.started_at / 86400000 AND playlist_id = OLD.playlist_id;
	DELETE FROM rollup_day_playlists WHERE day = OLD.started_at / 86400000 AND playlist_id = OLD.playlist_id AND plays = 0;
	DELETE FROM rollup_playlist_users WHERE playlist_id = OLD.playlist_id AND user_id = OLD.user_id AND NOT EXISTS (SELECT 1 FROM play_events WHERE playlist_id = OLD.playlist_id AND user_id = OLD.user_id);
	UPDATE rollup_playlist_users SET last_at = (SELECT max(started_at) FROM play_events WHERE playlist_id = OLD.playlist_id AND user_id = OLD.user_id) WHERE playlist_id = OLD.playlist_id AND user_id = OLD.user_id AND last_at = OLD.started_at;
	DELETE FROM rollup_playlist_tracks WHERE playlist_id = OLD.playlist_id AND track_key = OLD.track_key AND NOT EXISTS (SELECT 1 FROM play_events WHERE playlist_id = OLD.playlist_id AND track_key = OLD.track_key);
	UPDATE rollup_playlist_tracks SET last_at = (SELECT max(started_at) FROM play_events WHERE playlist_id = OLD.playlist_id AND track_key = OLD.track_key) WHERE playlist_id = OLD.playlist_id AND track_key = OLD.track_key AND last_at = OLD.started_at;
	UPDATE rollup_day_tracks SET plays = plays - (day = OLD.started_at / 86400000), cum_plays = cum_plays - 1 WHERE track_key = OLD.track_key AND day >= OLD.started_at / 86400000;
	DELETE FROM rollup_day_tracks WHERE day = OLD.started_at / 86400000 AND track_key = OLD.track_key AND plays = 0;
	UPDATE rollup_day_tracks SET
		title = (SELECT max(title) FROM play_events INDEXED BY play_events_started_at_idx WHERE started_at >= OLD.started_at / 86400000 * 86400000 AND started_at < (OLD.started_at / 86400000 + 1) * 86400000 AND track_key = OLD.track_key),
		artist = (SELECT max(artist) FROM play_events INDEXED BY play_events_started_at_idx WHERE started_at >= OLD.started_at / 86400000 * 86400000 AND started_at < (OLD.started_at / 86400000 + 1) * 86400000 AND track_key = OLD.track_key),
		last_at = (SELECT max(started_at) FROM play_events INDEXED BY play_events_started_at_idx WHERE started_at >= OLD.started_at / 86400000 * 86400000 AND started_at < (OLD.started_at / 86400000 + 1) * 86400000 AND track_key = OLD.track_key)
		WHERE day = OLD.started_at / 86400000 AND track_key = OLD.track_key;
	INSERT INTO rollup_day_totals VALUES (NEW.started_at / 86400000, NEW.source, NEW.device_type, 1, NEW.listen_duration, (CASE WHEN NEW.duration > 0 THEN min(NEW.listen_duration, NEW.duration) ELSE 0 END), (CASE WHEN NEW.duration > 0 THEN NEW.duration ELSE 0 END),
		NEW.completed, NEW.skipped, NEW.session_id IS NOT NULL, NEW.liked, NEW.shared, NEW.repeated,
		NEW.buffer_count > 0, NEW.quality_drops > 0, NEW.buffer_count, NEW.quality_drops)
	ON CONFLICT DO UPDATE SET plays = plays + 1, listen = listen + excluded.listen, heard = heard + excluded.heard, length = length + excluded.length,
		completions = completions + excluded.completions, skips = skips + excluded.skips, session_plays = session_plays + excluded.session_plays,
		liked = liked + excluded.liked, shared = shared + excluded.shared, repeated = repeated + excluded.repeated,
		buffered = buffered + excluded.buffered, dropped = dropped + excluded.dropped,
		buffer_events = buffer_events + excluded.buffer_events, drops = drops + excluded.drops;
	INSERT INTO rollup_day_hours VALUES (NEW.started_at / 86400000, (NEW.started_at / 3600000) % 24, 1) ON CONFLICT DO UPDATE SET plays = plays + 1;
	INSERT INTO rollup_day_genres VALUES (NEW.started_at / 86400000, coalesce(nullif(trim(NEW.genre), ''), ''), 1, NEW.completed)
	ON CONFLICT DO UPDATE SET plays = plays + 1, completions = completions + excluded.completions;
	INSERT INTO rollup_day_places SELECT NEW.started_at / 86400000, NEW.country, NEW.region, NEW.city, 0
		WHERE (NEW.country IS NOT NULL OR NEW.region IS NOT NULL OR NEW.city IS NOT NULL) AND NOT EXISTS (SELECT 1 FROM rollup_day_places WHERE day = NEW.started_at / 86400000 AND country IS NEW.country AND region IS NEW.region AND city IS NEW.city);
	UPDATE rollup_day_places SET plays = plays + 1 WHERE day = NEW.started_at / 86400000 AND country IS NEW.country AND region IS NEW.region AND city IS NEW.city;
	INSERT INTO rollup_place_users SELECT NEW.country, NEW.region, NEW.city, NEW.user_id, NEW.started_at
		WHERE NEW.user_id IS NOT NULL AND (NEW.country IS NOT NULL OR NEW.region IS NOT NULL OR NEW.city IS NOT NULL) AND NOT EXISTS (SELECT 1 FROM rollup_place_users WHERE user_id = NEW.user_id AND country IS NEW.country AND region IS NEW.region AND city IS NEW.city);
	UPDATE rollup_place_users SET last_at = max(last_at, NEW.started_at) WHERE user_id = NEW.user_id AND country IS NEW.country AND region IS NEW.region AND city IS NEW.city;
	INSERT INTO rollup_day_users SELECT NEW.user_id, NEW.started_at / 86400000, 1, NEW.listen_duration, NEW.completed,
			coalesce(p.cum_plays, 0) + 1, coalesce(p.cum_listen, 0) + NEW.listen_duration, coalesce(p.cum_completions, 0) + NEW.completed, coalesce(p.cum_days, 0) + 1
		FROM (SELECT 1) LEFT JOIN (SELECT * FROM rollup_day_users WHERE user_id = NEW.user_id AND day < NEW.started_at / 86400000 ORDER BY day DESC LIMIT 1) AS p
		WHERE NEW.user_id IS NOT NULL
	ON CONFLICT DO UPDATE SET plays = plays + 1, listen = listen + excluded.listen, completions = completions + excluded.completions,
		cum_plays = cum_plays + 1, cum_listen = cum_listen + excluded.listen, cum_completions = cum_completions + excluded.completions;
	UPDATE rollup_day_users SET cum_plays = cum_plays + 1, cum_listen = cum_listen + NEW.listen_duration, cum_completions = cum_completions + NEW.completed,
		cum_days = cum_days + ((SELECT plays FROM rollup_day_users WHERE user_id = NEW.user_id AND day = NEW.started_at / 86400000) = 1)
		WHERE user_id = NEW.user_id AND day > NEW.started_at / 86400000;
	INSERT INTO rollup_user_last SELECT NEW.user_id, NEW.started_at WHERE NEW.user_id IS NOT NULL
	ON CONFLICT DO UPDATE SET last_at = max(last_at, excluded.last_at);
	INSERT INTO rollup_track_last VALUES (NEW.track_key, NEW.started_at) ON CONFLICT DO UPDATE SET last_at = max(last_at, excluded.last_at);
	INSERT INTO rollup_session_last SELECT NEW.session_id, NEW.started_at WHERE NEW.session_id IS NOT NULL
	ON CONFLICT DO UPDATE SET last_at = max(last_at, excluded.last_at);
	INSERT INTO rollup_user_tracks SELECT NEW.user_id, NEW.track_key, NEW.started_at, CASE WHEN NEW.liked THEN NEW.started_at END WHERE NEW.user_id IS NOT NULL
	ON CONFLICT DO UPDATE SET last_at = max(last_at, excluded.last_at),
		liked_at = CASE WHEN excluded.liked_at IS NULL THEN liked_at ELSE max(coalesce(liked_at, excluded.liked_at), excluded.liked_at) END;
	INSERT INTO rollup_day_playlists SELECT NEW.started_at / 86400000, NEW.playlist_id, 1, NEW.completed, NEW.listen_duration WHERE NEW.playlist_id IS NOT NULL
	ON CONFLICT DO UPDATE SET plays = plays + 1, completions = completions + excluded.completions, listen = listen + excluded.listen;
	INSERT INTO rollup_playlist_users SELECT NEW.playlist_id, NEW.user_id, NEW.started_at WHERE NEW.playlist_id IS NOT NULL AND NEW.user_id IS NOT NULL
	ON CONFLICT DO UPDATE SET last_at = max(last_at, excluded.last_at);
	INSERT INTO rollup_playlist_tracks SELECT NEW.playlist_id, NEW.track_key, NEW.started_at WHERE NEW.playlist_id IS NOT NULL
	ON CONFLICT DO UPDATE SET last_at = max(last_at, excluded.last_at);
	INSERT INTO rollup_day_tracks SELECT NEW.track_key, NEW.started_at / 86400000, 1, NEW.title, NEW.artist, NEW.started_at, coalesce(p.cum_plays, 0) + 1
		FROM (SELECT 1) LEFT JOIN (SELECT cum_plays FROM rollup_day_tracks WHERE track_key = NEW.track_key AND day < NEW.started_at / 86400000 ORDER BY day DESC LIMIT 1) AS p
		WHERE true
	ON CONFLICT DO UPDATE SET plays = plays + 1, cum_plays = cum_plays + 1, title = max(title, excluded.title), last_at = max(last_at, excluded.last_at),
		artist = CASE WHEN excluded.artist IS NULL THEN artist WHEN artist IS NULL OR excluded.artist > artist THEN excluded.artist ELSE artist END;
	UPDATE rollup_day_tracks SET cum_plays = cum_plays + 1 WHERE track_key = NEW.track_key AND day > NEW.started_at / 86400000;
END
--> statement-breakpoint
CREATE TRIGGER `rollup_play_delete` AFTER DELETE ON `play_events` BEGIN
	UPDATE rollup_day_totals SET plays = plays - 1, listen = listen - OLD.listen_duration, heard = heard - (CASE WHEN OLD.duration > 0 THEN min(OLD.listen_duration, OLD.duration) ELSE 0 END), length = length - (CASE WHEN OLD.duration > 0 THEN OLD.duration ELSE 0 END),
		completions = completions - OLD.completed, skips = skips - OLD.skipped, session_plays = session_plays - (OLD.session_id IS NOT NULL),
		liked = liked - OLD.liked, shared = shared - OLD.shared, repeated = repeated - OLD.repeated,
		buffered = buffered - (OLD.buffer_count > 0), dropped = dropped - (OLD.quality_drops > 0),
		buffer_events = buffer_events - OLD.buffer_count, drops = drops - OLD.quality_drops
		WHERE day = OLD.started_at / 86400000 AND source = OLD.source AND device_type = OLD.device_type;
	DELETE FROM rollup_day_totals WHERE day = OLD.started_at / 86400000 AND source = OLD.source AND device_type = OLD.device_type AND plays = 0;
	UPDATE rollup_day_hours SET plays = plays - 1 WHERE day = OLD.started_at / 86400000 AND hour = (OLD.started_at / 3600000) % 24;
	DELETE FROM rollup_day_hours WHERE day = OLD.started_at / 86400000 AND hour = (OLD.started_at / 3600000) % 24 AND plays = 0;
	UPDATE rollup_day_genres SET plays = plays - 1, completions = completions - OLD.completed WHERE day = OLD.started_at / 86400000 AND genre = coalesce(nullif(trim(OLD.genre), ''), '');
	DELETE FROM rollup_day_genres WHERE day = OLD.started_at / 86400000 AND genre = coalesce(nullif(trim(OLD.genre), ''), '') AND plays = 0;
	UPDATE rollup_day_places SET plays = plays - 1 WHERE day = OLD.started_at / 86400000 AND country IS OLD.country AND region IS OLD.region AND city IS OLD.city;
	DELETE FROM rollup_day_places WHERE day = OLD.started_at / 86400000 AND country IS OLD.country AND region IS OLD.region AND city IS OLD.city AND plays = 0;
	DELETE FROM rollup_place_users WHERE user_id = OLD.user_id AND country IS OLD.country AND region IS OLD.region AND city IS OLD.city AND NOT EXISTS (SELECT 1 FROM play_events INDEXED BY play_events_user_started_idx WHERE user_id = OLD.user_id AND country IS OLD.country AND region IS OLD.region AND city IS OLD.city);
	UPDATE rollup_place_users SET last_at = (SELECT max(started_at) FROM play_events INDEXED BY play_events_user_started_idx WHERE user_id = OLD.user_id AND country IS OLD.country AND region IS OLD.region AND city IS OLD.city) WHERE user_id = OLD.user_id AND country IS OLD.country AND region IS OLD.region AND city IS OLD.city AND last_at = OLD.started_at;
	UPDATE rollup_day_users SET plays = plays - 1, listen = listen - OLD.listen_duration, completions = completions - OLD.completed,
		cum_plays = cum_plays - 1, cum_listen = cum_listen - OLD.listen_duration, cum_completions = cum_completions - OLD.completed
		WHERE user_id = OLD.user_id AND day = OLD.started_at / 86400000;
	UPDATE rollup_day_users SET cum_plays = cum_plays - 1, cum_listen = cum_listen - OLD.listen_duration, cum_completions = cum_completions - OLD.completed,
		cum_days = cum_days - ((SELECT plays FROM rollup_day_users WHERE user_id = OLD.user_id AND day = OLD.started_at / 86400000) = 0)
		WHERE user_id = OLD.user_id AND day > OLD.started_at / 86400000;
	DELETE FROM rollup_day_users WHERE user_id = OLD.user_id AND day = OLD.started_at / 86400000 AND plays = 0;
	DELETE FROM rollup_user_last WHERE user_id = OLD.user_id AND NOT EXISTS (SELECT 1 FROM play_events WHERE user_id = OLD.user_id);
	UPDATE rollup_user_last SET last_at = (SELECT max(started_at) FROM play_events WHERE user_id = OLD.user_id) WHERE user_id = OLD.user_id AND last_at = OLD.started_at;
	DELETE FROM rollup_track_last WHERE track_key = OLD.track_key AND NOT EXISTS (SELECT 1 FROM play_events WHERE track_key = OLD.track_key);
	UPDATE rollup_track_last SET last_at = (SELECT max(started_at) FROM play_events WHERE track_key = OLD.track_key) WHERE track_key = OLD.track_key AND last_at = OLD.started_at;
	DELETE FROM rollup_session_last WHERE session_id = OLD.session_id AND NOT EXISTS (SELECT 1 FROM play_events WHERE session_id = OLD.session_id);
	UPDATE rollup_session_last SET last_at = (SELECT max(started_at) FROM play_events WHERE session_id = OLD.session_id) WHERE session_id = OLD.session_id AND last_at = OLD.started_at;
	DELETE FROM rollup_user_tracks WHERE user_id = OLD.user_id AND track_key = OLD.track_key AND NOT EXISTS (SELECT 1 FROM play_events INDEXED BY play_events_user_started_idx WHERE user_id = OLD.user_id AND track_key = OLD.track_key);
	UPDATE rollup_user_tracks SET last_at = (SELECT max(started_at) FROM play_events INDEXED BY play_events_user_started_idx WHERE user_id = OLD.user_id AND track_key = OLD.track_key) WHERE user_id = OLD.user_id AND track_key = OLD.track_key AND last_at = OLD.started_at;
	UPDATE rollup_user_tracks SET liked_at = (SELECT max(started_at) FROM play_events INDEXED BY play_events_user_started_idx
			WHERE user_id = OLD.user_id AND liked = 1 AND track_key = OLD.track_key)
		WHERE OLD.liked = 1 AND user_id = OLD.user_id AND track_key = OLD.track_key;
	UPDATE rollup_day_playlists SET plays = plays - 1, completions = completions - OLD.completed, listen = listen - OLD.listen_duration
		WHERE day = OLD.started_at / 86400000 AND playlist_id = OLD.playlist_id;
	DELETE FROM rollup_day_playlists WHERE day = OLD.started_at / 86400000 AND playlist_id = OLD.playlist_id AND plays = 0;
	DELETE FROM rollup_playlist_users WHERE playlist_id = OLD.playlist_id AND user_id = OLD.user_id AND NOT EXISTS (SELECT 1 FROM play_events WHERE playlist_id = OLD.playlist_id AND user_id = OLD.user_id);
	UPDATE rollup_playlist_users SET last_at = (SELECT max(started_at) FROM play_events WHERE playlist_id = OLD.playlist_id AND user_id = OLD.user_id) WHERE playlist_id = OLD.playlist_id AND user_id = OLD.user_id AND last_at = OLD.started_at;
	DELETE FROM rollup_playlist_tracks WHERE playlist_id = OLD.playlist_id AND track_key = OLD.track_key AND NOT EXISTS (SELECT 1 FROM play_events WHERE playlist_id = OLD.playlist_id AND track_key = OLD.track_key);
	UPDATE rollup_playlist_tracks SET last_at = (SELECT max(started_at) FROM play_events WHERE playlist_id = OLD.playlist_id AND track_key = OLD.track_key) WHERE playlist_id = OLD.playlist_id AND track_key = OLD.track_key AND last_at = OLD.started_at;
	UPDATE rollup_day_tracks SET plays = plays - (day = OLD.started_at / 86400000), cum_plays = cum_plays - 1 WHERE track_key = OLD.track_key AND day >= OLD.started_at / 86400000;
	DELETE FROM rollup_day_tracks WHERE day = OLD.started_at / 86400000 AND track_key = OLD.track_key AND plays = 0;
	UPDATE rollup_day_tracks SET
		title = (SELECT max(title) FROM play_events INDEXED BY play_events_started_at_idx WHERE started_at >= OLD.started_at / 86400000 * 86400000 AND started_at < (OLD.started_at / 86400000 + 1) * 86400000 AND track_key = OLD.track_key),
		artist = (SELECT max(artist) FROM play_events INDEXED BY play_events_started_at_idx WHERE started_at >= OLD.started_at / 86400000 * 86400000 AND started_at < (OLD.started_at / 86400000 + 1) * 86400000 AND track_key = OLD.track_key),
		last_at = (SELECT max(started_at) FROM play_events INDEXED BY play_events_started_at_idx WHERE started_at >= OLD.started_at / 86400000 * 86400000 AND started_at < (OLD.started_at / 86400000 + 1) * 86400000 AND track_key = OLD.track_key)
		WHERE day = OLD.started_at / 86400000 AND track_key = OLD.track_key;
END
--> statement-breakpoint
-- Backfill: the roll-ups of the plays already stored.
INSERT INTO rollup_day_totals SELECT started_at / 86400000, source, device_type, count(*), total(listen_duration),
	total(CASE WHEN duration > 0 THEN min(listen_duration, duration) ELSE 0 END), total(CASE WHEN duration > 0 THEN duration ELSE 0 END),
	total(completed), total(skipped), count(session_id), total(liked), total(shared), total(repeated),
	total(buffer_count > 0), total(quality_drops > 0), total(buffer_count), total(quality_drops)
	FROM play_events GROUP BY 1, 2, 3
--> statement-breakpoint
INSERT INTO rollup_day_hours SELECT started_at / 86400000, (started_at / 3600000) % 24, count(*) FROM play_events GROUP BY 1, 2
--> statement-breakpoint
INSERT INTO rollup_day_genres SELECT started_at / 86400000, coalesce(nullif(trim(genre), ''), ''), count(*), total(completed) FROM play_events GROUP BY 1, 2
--> statement-breakpoint
INSERT INTO rollup_day_places SELECT started_at / 86400000, country, region, city, count(*) FROM play_events
	WHERE country IS NOT NULL OR region IS NOT NULL OR city IS NOT NULL GROUP BY 1, 2, 3, 4
--> statement-breakpoint
INSERT INTO rollup_place_users SELECT country, region, city, user_id, max(started_at) FROM play_events
	WHERE user_id IS NOT NULL AND (country IS NOT NULL OR region IS NOT NULL OR city IS NOT NULL) GROUP BY 1, 2, 3, 4
--> statement-breakpoint
INSERT INTO rollup_day_users SELECT user_id, day, plays, listen, completions,
	sum(plays) OVER w, sum(listen) OVER w, sum(completions) OVER w, row_number() OVER w
	FROM (SELECT user_id, started_at / 86400000 AS day, count(*) AS plays, total(listen_duration) AS listen, total(completed) AS completions
		FROM play_events WHERE user_id IS NOT NULL GROUP BY 1, 2)
	WINDOW w AS (PARTITION BY user_id ORDER BY day)
--> statement-breakpoint
INSERT INTO rollup_user_last SELECT user_id, max(started_at) FROM play_events WHERE user_id IS NOT NULL GROUP BY 1
--> statement-breakpoint
INSERT INTO rollup_track_last SELECT track_key, max(started_at) FROM play_events GROUP BY 1
--> statement-breakpoint
INSERT INTO rollup_session_last SELECT session_id, max(started_at) FROM play_events WHERE session_id IS NOT NULL GROUP BY 1
--> statement-breakpoint
INSERT INTO rollup_user_tracks SELECT user_id, track_key, max(started_at), max(CASE WHEN liked THEN started_at END) FROM play_events
	WHERE user_id IS NOT NULL GROUP BY 1, 2
--> statement-breakpoint
INSERT INTO rollup_day_playlists SELECT started_at / 86400000, playlist_id, count(*), total(completed), total(listen_duration) FROM play_events
	WHERE playlist_id IS NOT NULL GROUP BY 1, 2
--> statement-breakpoint
INSERT INTO rollup_playlist_users SELECT playlist_id, user_id, max(started_at) FROM play_events
	WHERE playlist_id IS NOT NULL AND user_id IS NOT NULL GROUP BY 1, 2
--> statement-breakpoint
INSERT INTO rollup_playlist_tracks SELECT playlist_id, track_key, max(started_at) FROM play_events WHERE playlist_id IS NOT NULL GROUP BY 1, 2
--> statement-breakpoint
INSERT INTO rollup_day_tracks SELECT track_key, day, plays, title, artist, last_at, sum(plays) OVER (PARTITION BY track_key ORDER BY day)
	FROM (SELECT track_key, started_at / 86400000 AS day, count(*) AS plays, max(title) AS title, max(artist) AS artist, max(started_at) AS last_at
		FROM play_events GROUP BY 1, 2)
