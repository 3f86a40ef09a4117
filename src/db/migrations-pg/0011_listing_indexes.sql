DROP INDEX "library_folders_parent_idx";--> statement-breakpoint
DROP INDEX "ratings_user_kind_rating_idx";--> statement-breakpoint
CREATE INDEX "library_tracks_folder_cover_idx" ON "library_tracks" USING btree ("folder") WHERE "library_tracks"."cover_path" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "library_folders_parent_idx" ON "library_folders" USING btree ("parent","name","path","cover_path");--> statement-breakpoint
CREATE INDEX "ratings_user_kind_rating_idx" ON "ratings" USING btree ("user_id","kind","rating","item_id");