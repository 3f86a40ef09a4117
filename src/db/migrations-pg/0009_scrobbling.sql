CREATE TABLE "scrobble_connections" (
	"user_id" text NOT NULL,
	"service" text NOT NULL,
	"account" text NOT NULL,
	"credential" text NOT NULL,
	"connected_at" bigint NOT NULL,
	CONSTRAINT "scrobble_connections_userId_service_pk" PRIMARY KEY("user_id","service")
);
--> statement-breakpoint
CREATE TABLE "scrobble_queue" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"service" text NOT NULL,
	"kind" text NOT NULL,
	"play_id" text NOT NULL,
	"artist" text NOT NULL,
	"title" text NOT NULL,
	"album" text,
	"duration" double precision NOT NULL,
	"played_at" bigint NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" bigint DEFAULT 0 NOT NULL,
	"next_attempt_at" bigint NOT NULL,
	"claimed_until" bigint,
	"last_error" text,
	"sent_at" bigint,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "scrobble_connections" ADD CONSTRAINT "scrobble_connections_userId_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scrobble_queue" ADD CONSTRAINT "scrobble_queue_userId_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "scrobble_queue_play_idx" ON "scrobble_queue" USING btree ("play_id","service","kind");--> statement-breakpoint
CREATE INDEX "scrobble_queue_due_idx" ON "scrobble_queue" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "scrobble_queue_user_created_idx" ON "scrobble_queue" USING btree ("user_id","created_at");