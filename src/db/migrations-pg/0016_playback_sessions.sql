CREATE TABLE "playback_sessions" (
	"user_id" text NOT NULL,
	"app" text NOT NULL,
	"song_id" text NOT NULL,
	"path" text NOT NULL,
	"duration" double precision NOT NULL,
	"state" text NOT NULL,
	"scrobble" boolean NOT NULL,
	"play_event_id" text,
	"started_at" bigint NOT NULL,
	"at" bigint NOT NULL,
	"position_ms" bigint NOT NULL,
	"rate" double precision NOT NULL,
	"listened" double precision NOT NULL,
	"version" bigint NOT NULL,
	CONSTRAINT "playback_sessions_userId_app_pk" PRIMARY KEY("user_id","app")
);
--> statement-breakpoint
ALTER TABLE "playback_sessions" ADD CONSTRAINT "playback_sessions_userId_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "playback_sessions_at_idx" ON "playback_sessions" USING btree ("at");