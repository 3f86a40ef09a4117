DROP INDEX `folders_user_position_idx`;--> statement-breakpoint
CREATE INDEX `folders_user_order_idx` ON `folders` (`user_id`,`position`,`created_at`);