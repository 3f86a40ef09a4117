CREATE TABLE `library_albums` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`name` text NOT NULL,
	`sort_name` text NOT NULL,
	`artist` text NOT NULL,
	`artist_id` text NOT NULL,
	`year` integer,
	`genre` text,
	`song_count` integer NOT NULL,
	`duration` real NOT NULL,
	`cover_path` text,
	`added_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `library_albums_id_unique` ON `library_albums` (`id`);--> statement-breakpoint
CREATE INDEX `library_albums_name_idx` ON `library_albums` (`sort_name`,`id`);--> statement-breakpoint
CREATE INDEX `library_albums_year_idx` ON `library_albums` ("year" DESC,`sort_name`);--> statement-breakpoint
CREATE INDEX `library_albums_added_idx` ON `library_albums` (`added_at`);--> statement-breakpoint
CREATE INDEX `library_albums_artist_idx` ON `library_albums` (`artist_id`,`year`);--> statement-breakpoint
CREATE INDEX `library_albums_genre_idx` ON `library_albums` (`genre`,`sort_name`);--> statement-breakpoint
CREATE TABLE `library_artists` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`name` text NOT NULL,
	`sort_name` text NOT NULL,
	`album_count` integer NOT NULL,
	`song_count` integer NOT NULL,
	`cover_path` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `library_artists_id_unique` ON `library_artists` (`id`);--> statement-breakpoint
CREATE INDEX `library_artists_name_idx` ON `library_artists` (`sort_name`,`id`);--> statement-breakpoint
CREATE TABLE `library_folders` (
	`path` text PRIMARY KEY NOT NULL,
	`parent` text,
	`name` text NOT NULL,
	`cover_path` text
);
--> statement-breakpoint
CREATE INDEX `library_folders_parent_idx` ON `library_folders` (`parent`,`name`);--> statement-breakpoint
CREATE TABLE `library_genres` (
	`name` text PRIMARY KEY NOT NULL,
	`song_count` integer NOT NULL,
	`album_count` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `library_scans` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`started_at` integer NOT NULL,
	`finished_at` integer NOT NULL,
	`full` integer NOT NULL,
	`files` integer NOT NULL,
	`read` integer NOT NULL,
	`removed` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `library_tracks` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`path` text NOT NULL,
	`folder` text NOT NULL,
	`title` text NOT NULL,
	`artist` text NOT NULL,
	`artist_id` text NOT NULL,
	`album_artist` text NOT NULL,
	`album_artist_id` text NOT NULL,
	`album` text NOT NULL,
	`album_id` text NOT NULL,
	`genre` text,
	`track_no` integer,
	`disc_no` integer,
	`year` integer,
	`duration` real NOT NULL,
	`bitrate` integer,
	`format` text,
	`mime` text NOT NULL,
	`rg_track_gain` real,
	`rg_track_peak` real,
	`rg_album_gain` real,
	`rg_album_peak` real,
	`size` integer NOT NULL,
	`mtime_ms` integer NOT NULL,
	`embedded_cover` integer NOT NULL,
	`cover_path` text,
	`added_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `library_tracks_id_unique` ON `library_tracks` (`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `library_tracks_path_unique` ON `library_tracks` (`path`);--> statement-breakpoint
CREATE INDEX `library_tracks_folder_idx` ON `library_tracks` (`folder`,`path`);--> statement-breakpoint
CREATE INDEX `library_tracks_album_idx` ON `library_tracks` (`album_id`,`disc_no`,`track_no`,`path`);--> statement-breakpoint
CREATE INDEX `library_tracks_artist_idx` ON `library_tracks` (`artist_id`);--> statement-breakpoint
CREATE INDEX `library_tracks_album_artist_idx` ON `library_tracks` (`album_artist_id`);--> statement-breakpoint
CREATE INDEX `library_tracks_genre_idx` ON `library_tracks` (`genre`);--> statement-breakpoint
CREATE INDEX `library_tracks_title_idx` ON `library_tracks` ("title" COLLATE NOCASE);--> statement-breakpoint
CREATE INDEX `library_tracks_added_idx` ON `library_tracks` (`added_at`);