CREATE TABLE `play_queues` (
	`user_id` text PRIMARY KEY NOT NULL,
	`tracks` text NOT NULL,
	`index` integer DEFAULT 0 NOT NULL,
	`position_sec` real DEFAULT 0 NOT NULL,
	`device` text DEFAULT '' NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
