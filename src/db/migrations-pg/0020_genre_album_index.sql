DROP INDEX "library_tracks_genre_idx";--> statement-breakpoint
CREATE INDEX "library_tracks_genre_idx" ON "library_tracks" USING btree ("genre","album_id");