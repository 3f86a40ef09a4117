CREATE TABLE `rate_limits` (
	`bucket` text NOT NULL,
	`key` text NOT NULL,
	`window_start` integer NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`bucket`, `key`)
);
