DROP INDEX `library_tracks_genre_idx`;--> statement-breakpoint
CREATE INDEX `library_tracks_genre_idx` ON `library_tracks` (`genre`,`album_id`);