CREATE TABLE `app_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`key_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_used_at` integer,
	`revoked_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `app_keys_keyHash_unique` ON `app_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `app_keys_user_id_idx` ON `app_keys` (`user_id`);