ALTER TABLE `play_events` ADD `client` text;--> statement-breakpoint
CREATE INDEX `library_albums_year_asc_idx` ON `library_albums` (`year`,`sort_name`);--> statement-breakpoint
CREATE INDEX `library_albums_artist_sort_idx` ON `library_albums` (lower("artist"),`sort_name`,`id`);