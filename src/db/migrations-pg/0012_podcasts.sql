CREATE TABLE "podcast_channels" (
	"id" text PRIMARY KEY NOT NULL,
	"feed_url" text NOT NULL,
	"title" text NOT NULL,
	"author" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"artwork_url" text,
	"site_url" text,
	"etag" text,
	"last_modified" text,
	"checked_at" bigint,
	"last_error" text,
	"created_at" bigint NOT NULL,
	CONSTRAINT "podcast_channels_feedUrl_unique" UNIQUE("feed_url")
);
--> statement-breakpoint
CREATE TABLE "podcast_episodes" (
	"id" text PRIMARY KEY NOT NULL,
	"channel_id" text NOT NULL,
	"guid" text NOT NULL,
	"title" text NOT NULL,
	"published_at" bigint,
	"duration_sec" bigint DEFAULT 0 NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"enclosure_url" text NOT NULL,
	"enclosure_type" text DEFAULT 'audio/mpeg' NOT NULL,
	"enclosure_size" bigint DEFAULT 0 NOT NULL,
	"download_file" text,
	"downloaded_at" bigint
);
--> statement-breakpoint
CREATE TABLE "podcast_progress" (
	"user_id" text NOT NULL,
	"episode_id" text NOT NULL,
	"position_ms" bigint DEFAULT 0 NOT NULL,
	"played" boolean DEFAULT false NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "podcast_progress_userId_episodeId_pk" PRIMARY KEY("user_id","episode_id")
);
--> statement-breakpoint
CREATE TABLE "podcast_subscriptions" (
	"user_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"created_at" bigint NOT NULL,
	"visited_at" bigint NOT NULL,
	CONSTRAINT "podcast_subscriptions_userId_channelId_pk" PRIMARY KEY("user_id","channel_id")
);
--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "podcast_feeds_by" text DEFAULT 'everyone' NOT NULL;--> statement-breakpoint
ALTER TABLE "podcast_episodes" ADD CONSTRAINT "podcast_episodes_channelId_podcast_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."podcast_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "podcast_progress" ADD CONSTRAINT "podcast_progress_userId_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "podcast_progress" ADD CONSTRAINT "podcast_progress_episodeId_podcast_episodes_id_fk" FOREIGN KEY ("episode_id") REFERENCES "public"."podcast_episodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "podcast_subscriptions" ADD CONSTRAINT "podcast_subscriptions_userId_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "podcast_subscriptions" ADD CONSTRAINT "podcast_subscriptions_channelId_podcast_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."podcast_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "podcast_episodes_channel_guid_idx" ON "podcast_episodes" USING btree ("channel_id","guid");--> statement-breakpoint
CREATE INDEX "podcast_episodes_channel_published_idx" ON "podcast_episodes" USING btree ("channel_id","published_at");--> statement-breakpoint
CREATE INDEX "podcast_subscriptions_channel_idx" ON "podcast_subscriptions" USING btree ("channel_id");