CREATE TABLE "shares" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"target_kind" text NOT NULL,
	"target_ids" text NOT NULL,
	"description" text,
	"created_at" bigint NOT NULL,
	"expires_at" bigint,
	"revoked_at" bigint,
	"visit_count" bigint DEFAULT 0 NOT NULL,
	"play_count" bigint DEFAULT 0 NOT NULL,
	"last_visited_at" bigint
);
--> statement-breakpoint
ALTER TABLE "shares" ADD CONSTRAINT "shares_userId_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "shares_user_created_idx" ON "shares" USING btree ("user_id","created_at");