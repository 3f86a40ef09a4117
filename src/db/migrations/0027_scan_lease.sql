CREATE TABLE `library_scan_lease` (
	`name` text PRIMARY KEY NOT NULL,
	`holder` text,
	`expires_at` integer NOT NULL,
	`asked` integer NOT NULL,
	`asked_full` integer NOT NULL,
	`scanned` integer NOT NULL,
	`total` integer NOT NULL
);
