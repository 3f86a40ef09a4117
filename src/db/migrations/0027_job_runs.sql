CREATE TABLE `job_runs` (
	`name` text NOT NULL,
	`slot` integer NOT NULL,
	`started_at` integer NOT NULL,
	PRIMARY KEY(`name`, `slot`)
);
