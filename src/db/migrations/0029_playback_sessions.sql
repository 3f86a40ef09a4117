CREATE TABLE `playback_sessions` (
	`user_id` text NOT NULL,
	`app` text NOT NULL,
	`song_id` text NOT NULL,
	`path` text NOT NULL,
	`duration` real NOT NULL,
	`state` text NOT NULL,
	`scrobble` integer NOT NULL,
	`play_event_id` text,
	`started_at` integer NOT NULL,
	`at` integer NOT NULL,
	`position_ms` integer NOT NULL,
	`rate` real NOT NULL,
	`listened` real NOT NULL,
	`version` integer NOT NULL,
	PRIMARY KEY(`user_id`, `app`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `playback_sessions_at_idx` ON `playback_sessions` (`at`);