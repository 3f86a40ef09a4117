CREATE TABLE "radio_favourites" (
	"user_id" text NOT NULL,
	"station_id" text NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "radio_favourites_userId_stationId_pk" PRIMARY KEY("user_id","station_id")
);
--> statement-breakpoint
CREATE TABLE "radio_stations" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"stream_url" text NOT NULL,
	"homepage_url" text,
	"created_by" text,
	"updated_by" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "radio_favourites" ADD CONSTRAINT "radio_favourites_userId_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "radio_favourites" ADD CONSTRAINT "radio_favourites_stationId_radio_stations_id_fk" FOREIGN KEY ("station_id") REFERENCES "public"."radio_stations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "radio_stations" ADD CONSTRAINT "radio_stations_createdBy_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "radio_stations" ADD CONSTRAINT "radio_stations_updatedBy_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "radio_favourites_station_idx" ON "radio_favourites" USING btree ("station_id");--> statement-breakpoint
CREATE INDEX "radio_stations_name_idx" ON "radio_stations" USING btree ("name");