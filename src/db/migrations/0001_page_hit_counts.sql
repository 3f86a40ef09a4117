CREATE TABLE `page_hit_counts` (
	`page` text PRIMARY KEY NOT NULL,
	`hits` integer DEFAULT 0 NOT NULL,
	`unique_visitors` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO `page_hit_counts` (`page`, `hits`, `unique_visitors`)
  SELECT `page`, count(*), count(DISTINCT `visitor_hash`) FROM `page_hits` GROUP BY `page`;
