-- Page-hit roll-ups (docs/decisions/029 "Second round"): the admin's traffic statistics (top
-- pages, daily activity, hit analytics, 30-day page views) read per-day counts and "last seen" tables
-- instead of counting page_hits. The trigger below keeps them in the same transaction as each hit.
-- page_hits is append-only: the only delete is the admin's "clear hit data", which empties these
-- tables with it (services/stats.ts clearHitData), so there is no delete trigger to pay per row.
-- visitors: distinct visitor hashes of that page (rollup_hit_days) or of any page (rollup_hit_day_totals)
-- on that UTC day. A distinct count over a rolling period comes from the "last seen" tables: a visitor
-- seen since `from` is one whose latest hit is at or after `from`.
CREATE TABLE `rollup_hit_days` (`day` integer NOT NULL, `page` text NOT NULL, `hits` integer NOT NULL, `visitors` integer NOT NULL,
	PRIMARY KEY (`day`, `page`)) WITHOUT ROWID
--> statement-breakpoint
CREATE TABLE `rollup_hit_day_totals` (`day` integer PRIMARY KEY NOT NULL, `hits` integer NOT NULL, `visitors` integer NOT NULL) WITHOUT ROWID
--> statement-breakpoint
CREATE TABLE `rollup_hit_visitors` (`visitor_hash` text PRIMARY KEY NOT NULL, `last_at` integer NOT NULL) WITHOUT ROWID
--> statement-breakpoint
CREATE INDEX `rollup_hit_visitors_idx` ON `rollup_hit_visitors` (`last_at`)
--> statement-breakpoint
CREATE TABLE `rollup_hit_page_visitors` (`page` text NOT NULL, `visitor_hash` text NOT NULL, `last_at` integer NOT NULL,
	PRIMARY KEY (`page`, `visitor_hash`)) WITHOUT ROWID
--> statement-breakpoint
CREATE INDEX `rollup_hit_page_visitors_idx` ON `rollup_hit_page_visitors` (`page`, `last_at`)
--> statement-breakpoint
INSERT INTO rollup_hit_days SELECT created_at / 86400000, page, count(*), count(DISTINCT visitor_hash) FROM page_hits GROUP BY 1, 2
--> statement-breakpoint
INSERT INTO rollup_hit_day_totals SELECT created_at / 86400000, count(*), count(DISTINCT visitor_hash) FROM page_hits GROUP BY 1
--> statement-breakpoint
INSERT INTO rollup_hit_visitors SELECT visitor_hash, max(created_at) FROM page_hits GROUP BY 1
--> statement-breakpoint
INSERT INTO rollup_hit_page_visitors SELECT page, visitor_hash, max(created_at) FROM page_hits GROUP BY 1, 2
--> statement-breakpoint
-- A visitor is new to a (day, page) or a day when no other hit of theirs falls in that day (looked up
-- through the page + visitor and the visitor indexes; a hash rotates daily, so these are a few rows).
CREATE TRIGGER `rollup_page_hits_insert` AFTER INSERT ON `page_hits` BEGIN
	INSERT INTO rollup_hit_days VALUES (NEW.created_at / 86400000, NEW.page, 1,
		NOT EXISTS (SELECT 1 FROM page_hits WHERE page = NEW.page AND visitor_hash = NEW.visitor_hash AND id <> NEW.id
			AND created_at >= NEW.created_at / 86400000 * 86400000 AND created_at < (NEW.created_at / 86400000 + 1) * 86400000))
	ON CONFLICT DO UPDATE SET hits = hits + 1, visitors = visitors + excluded.visitors;
	INSERT INTO rollup_hit_day_totals VALUES (NEW.created_at / 86400000, 1,
		NOT EXISTS (SELECT 1 FROM page_hits INDEXED BY page_hits_visitor_idx WHERE visitor_hash = NEW.visitor_hash AND id <> NEW.id
			AND created_at >= NEW.created_at / 86400000 * 86400000 AND created_at < (NEW.created_at / 86400000 + 1) * 86400000))
	ON CONFLICT DO UPDATE SET hits = hits + 1, visitors = visitors + excluded.visitors;
	INSERT INTO rollup_hit_visitors VALUES (NEW.visitor_hash, NEW.created_at) ON CONFLICT DO UPDATE SET last_at = max(last_at, excluded.last_at);
	INSERT INTO rollup_hit_page_visitors VALUES (NEW.page, NEW.visitor_hash, NEW.created_at) ON CONFLICT DO UPDATE SET last_at = max(last_at, excluded.last_at);
END
