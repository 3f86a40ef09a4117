CREATE TABLE `radio_favourites` (
	`user_id` text NOT NULL,
	`station_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `station_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`station_id`) REFERENCES `radio_stations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `radio_favourites_station_idx` ON `radio_favourites` (`station_id`);--> statement-breakpoint
CREATE TABLE `radio_stations` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`stream_url` text NOT NULL,
	`homepage_url` text,
	`created_by` text,
	`updated_by` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`updated_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `radio_stations_name_idx` ON `radio_stations` (`name`);