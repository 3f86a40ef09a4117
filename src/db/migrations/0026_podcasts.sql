CREATE TABLE `podcast_channels` (
	`id` text PRIMARY KEY NOT NULL,
	`feed_url` text NOT NULL,
	`title` text NOT NULL,
	`author` text DEFAULT '' NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`artwork_url` text,
	`site_url` text,
	`etag` text,
	`last_modified` text,
	`checked_at` integer,
	`last_error` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `podcast_channels_feedUrl_unique` ON `podcast_channels` (`feed_url`);--> statement-breakpoint
CREATE TABLE `podcast_episodes` (
	`id` text PRIMARY KEY NOT NULL,
	`channel_id` text NOT NULL,
	`guid` text NOT NULL,
	`title` text NOT NULL,
	`published_at` integer,
	`duration_sec` integer DEFAULT 0 NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`enclosure_url` text NOT NULL,
	`enclosure_type` text DEFAULT 'audio/mpeg' NOT NULL,
	`enclosure_size` integer DEFAULT 0 NOT NULL,
	`download_file` text,
	`downloaded_at` integer,
	FOREIGN KEY (`channel_id`) REFERENCES `podcast_channels`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `podcast_episodes_channel_guid_idx` ON `podcast_episodes` (`channel_id`,`guid`);--> statement-breakpoint
CREATE INDEX `podcast_episodes_channel_published_idx` ON `podcast_episodes` (`channel_id`,`published_at`);--> statement-breakpoint
CREATE TABLE `podcast_progress` (
	`user_id` text NOT NULL,
	`episode_id` text NOT NULL,
	`position_ms` integer DEFAULT 0 NOT NULL,
	`played` integer DEFAULT false NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `episode_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`episode_id`) REFERENCES `podcast_episodes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `podcast_subscriptions` (
	`user_id` text NOT NULL,
	`channel_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`visited_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `channel_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`channel_id`) REFERENCES `podcast_channels`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `podcast_subscriptions_channel_idx` ON `podcast_subscriptions` (`channel_id`);--> statement-breakpoint
ALTER TABLE `site_settings` ADD `podcast_feeds_by` text DEFAULT 'everyone' NOT NULL;