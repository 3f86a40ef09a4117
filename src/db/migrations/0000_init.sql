CREATE TABLE `logins` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `logins_created_at_idx` ON `logins` (`created_at`);--> statement-breakpoint
CREATE TABLE `password_reset_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `password_reset_tokens_user_id_idx` ON `password_reset_tokens` (`user_id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_id_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`username` text NOT NULL,
	`email` text NOT NULL,
	`password_hash` text NOT NULL,
	`is_admin` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_unique` ON `users` (`username`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE INDEX `users_created_at_idx` ON `users` (`created_at`);--> statement-breakpoint
CREATE TABLE `folders` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`label` text NOT NULL,
	`path` text NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `folders_user_position_idx` ON `folders` (`user_id`,`position`);--> statement-breakpoint
CREATE TABLE `media_tags` (
	`path` text PRIMARY KEY NOT NULL,
	`size` integer NOT NULL,
	`mtime_ms` integer NOT NULL,
	`title` text,
	`artist` text,
	`album` text,
	`genre` text,
	`year` integer,
	`duration` real,
	`cover_mime` text
);
--> statement-breakpoint
CREATE TABLE `interactions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text,
	`track_id` text NOT NULL,
	`interaction_type` text NOT NULL,
	`timestamp` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `interactions_created_at_idx` ON `interactions` (`created_at`);--> statement-breakpoint
CREATE INDEX `interactions_user_created_idx` ON `interactions` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `likes` (
	`user_id` text NOT NULL,
	`track_key` text NOT NULL,
	`track_url` text,
	`liked` integer DEFAULT true NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `track_key`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `play_events` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text,
	`track_url` text NOT NULL,
	`title` text NOT NULL,
	`duration` real DEFAULT 0 NOT NULL,
	`device_type` text DEFAULT 'unknown' NOT NULL,
	`genre` text,
	`artist` text,
	`album` text,
	`year` integer,
	`source` text DEFAULT 'direct' NOT NULL,
	`playlist_id` text,
	`previous_track` text,
	`next_track` text,
	`session_id` text,
	`session_position` integer,
	`network_type` text DEFAULT 'unknown' NOT NULL,
	`country` text,
	`region` text,
	`city` text,
	`listen_duration` real DEFAULT 0 NOT NULL,
	`completed` integer DEFAULT false NOT NULL,
	`skipped` integer DEFAULT false NOT NULL,
	`skip_time` real,
	`liked` integer DEFAULT false NOT NULL,
	`shared` integer DEFAULT false NOT NULL,
	`repeated` integer DEFAULT false NOT NULL,
	`buffer_count` integer DEFAULT 0 NOT NULL,
	`quality_drops` integer DEFAULT 0 NOT NULL,
	`started_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`ended_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `play_events_started_at_idx` ON `play_events` (`started_at`);--> statement-breakpoint
CREATE INDEX `play_events_user_started_idx` ON `play_events` (`user_id`,`started_at`);--> statement-breakpoint
CREATE INDEX `play_events_track_started_idx` ON `play_events` (`track_url`,`started_at`);--> statement-breakpoint
CREATE INDEX `play_events_playlist_started_idx` ON `play_events` (`playlist_id`,`started_at`);--> statement-breakpoint
CREATE INDEX `play_events_country_started_idx` ON `play_events` (`country`,`started_at`);--> statement-breakpoint
CREATE TABLE `chart_cache` (
	`region` text PRIMARY KEY NOT NULL,
	`payload` text NOT NULL,
	`fetched_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `contact_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`subject` text NOT NULL,
	`message` text NOT NULL,
	`read` integer DEFAULT false NOT NULL,
	`important` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `contact_messages_created_at_idx` ON `contact_messages` (`created_at`);--> statement-breakpoint
CREATE INDEX `contact_messages_read_idx` ON `contact_messages` (`read`,`created_at`);--> statement-breakpoint
CREATE INDEX `contact_messages_important_idx` ON `contact_messages` (`important`,`created_at`);--> statement-breakpoint
CREATE TABLE `page_hits` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`page` text NOT NULL,
	`visitor_hash` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `page_hits_page_visitor_idx` ON `page_hits` (`page`,`visitor_hash`);--> statement-breakpoint
CREATE INDEX `page_hits_created_at_idx` ON `page_hits` (`created_at`);--> statement-breakpoint
CREATE INDEX `page_hits_visitor_idx` ON `page_hits` (`visitor_hash`);--> statement-breakpoint
CREATE TABLE `promotions` (
	`id` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`description` text NOT NULL,
	`image_url` text NOT NULL,
	`link_url` text NOT NULL,
	`background_color` text NOT NULL,
	`text_color` text NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`active` integer DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE `server_errors` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`request_id` text,
	`method` text NOT NULL,
	`path` text NOT NULL,
	`status` integer NOT NULL,
	`message` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `server_errors_created_at_idx` ON `server_errors` (`created_at`);