CREATE TABLE `scrobble_connections` (
	`user_id` text NOT NULL,
	`service` text NOT NULL,
	`account` text NOT NULL,
	`credential` text NOT NULL,
	`connected_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `service`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `scrobble_queue` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`service` text NOT NULL,
	`kind` text NOT NULL,
	`play_id` text NOT NULL,
	`artist` text NOT NULL,
	`title` text NOT NULL,
	`album` text,
	`duration` real NOT NULL,
	`played_at` integer NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`claimed_until` integer,
	`last_error` text,
	`sent_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `scrobble_queue_play_idx` ON `scrobble_queue` (`play_id`,`service`,`kind`);--> statement-breakpoint
CREATE INDEX `scrobble_queue_due_idx` ON `scrobble_queue` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `scrobble_queue_user_created_idx` ON `scrobble_queue` (`user_id`,`created_at`);