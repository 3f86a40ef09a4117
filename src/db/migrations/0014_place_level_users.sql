-- Members per country and per region (docs/decisions/029 "Second round"): geography counted
-- distinct members over every member × place "last seen" row at each call. These tables keep one "last
-- seen" row per member and country and per member and region (a member in two cities of one region is
-- one row), so the members of a place in a period are a count over one index range. A city is already
-- one rollup_place_users row per member, counted through the new city index. The triggers follow
-- rollup_place_users (which the play_events triggers keep): a row added or moved later raises the
-- level's time, a row moved earlier or removed recomputes it from the member's remaining place rows.
CREATE TABLE `rollup_country_users` (`country` text NOT NULL, `user_id` text NOT NULL REFERENCES `users`(`id`) ON DELETE cascade,
	`last_at` integer NOT NULL, PRIMARY KEY (`country`, `user_id`)) WITHOUT ROWID
--> statement-breakpoint
CREATE INDEX `rollup_country_users_idx` ON `rollup_country_users` (`country`, `last_at`)
--> statement-breakpoint
CREATE TABLE `rollup_region_users` (`country` text, `region` text NOT NULL, `user_id` text NOT NULL REFERENCES `users`(`id`) ON DELETE cascade,
	`last_at` integer NOT NULL)
--> statement-breakpoint
CREATE INDEX `rollup_region_users_idx` ON `rollup_region_users` (`region`, `country`, `last_at`)
--> statement-breakpoint
CREATE INDEX `rollup_region_users_user_idx` ON `rollup_region_users` (`user_id`, `country`, `region`)
--> statement-breakpoint
CREATE INDEX `rollup_place_users_city_idx` ON `rollup_place_users` (`city`, `region`, `country`, `last_at`)
--> statement-breakpoint
INSERT INTO rollup_country_users SELECT country, user_id, max(last_at) FROM rollup_place_users WHERE country IS NOT NULL GROUP BY 1, 2
--> statement-breakpoint
INSERT INTO rollup_region_users SELECT country, region, user_id, max(last_at) FROM rollup_place_users WHERE region IS NOT NULL GROUP BY 1, 2, 3
--> statement-breakpoint
CREATE TRIGGER `rollup_place_users_insert` AFTER INSERT ON `rollup_place_users` BEGIN
	INSERT INTO rollup_country_users SELECT NEW.country, NEW.user_id, NEW.last_at WHERE NEW.country IS NOT NULL
	ON CONFLICT DO UPDATE SET last_at = max(last_at, excluded.last_at);
	INSERT INTO rollup_region_users SELECT NEW.country, NEW.region, NEW.user_id, NEW.last_at
		WHERE NEW.region IS NOT NULL AND NOT EXISTS (SELECT 1 FROM rollup_region_users WHERE user_id = NEW.user_id AND country IS NEW.country AND region = NEW.region);
	UPDATE rollup_region_users SET last_at = max(last_at, NEW.last_at) WHERE user_id = NEW.user_id AND country IS NEW.country AND region = NEW.region;
END
--> statement-breakpoint
CREATE TRIGGER `rollup_place_users_later` AFTER UPDATE OF `last_at` ON `rollup_place_users` WHEN NEW.last_at > OLD.last_at BEGIN
	UPDATE rollup_country_users SET last_at = max(last_at, NEW.last_at) WHERE country = NEW.country AND user_id = NEW.user_id;
	UPDATE rollup_region_users SET last_at = max(last_at, NEW.last_at) WHERE user_id = NEW.user_id AND country IS NEW.country AND region = NEW.region;
END
--> statement-breakpoint
CREATE TRIGGER `rollup_place_users_earlier` AFTER UPDATE OF `last_at` ON `rollup_place_users` WHEN NEW.last_at < OLD.last_at BEGIN
	UPDATE rollup_country_users SET last_at = (SELECT max(last_at) FROM rollup_place_users WHERE user_id = NEW.user_id AND country = NEW.country)
		WHERE country = NEW.country AND user_id = NEW.user_id;
	UPDATE rollup_region_users SET last_at = (SELECT max(last_at) FROM rollup_place_users WHERE user_id = NEW.user_id AND country IS NEW.country AND region = NEW.region)
		WHERE user_id = NEW.user_id AND country IS NEW.country AND region = NEW.region;
END
--> statement-breakpoint
CREATE TRIGGER `rollup_place_users_delete` AFTER DELETE ON `rollup_place_users` BEGIN
	DELETE FROM rollup_country_users WHERE country = OLD.country AND user_id = OLD.user_id
		AND NOT EXISTS (SELECT 1 FROM rollup_place_users WHERE user_id = OLD.user_id AND country = OLD.country);
	UPDATE rollup_country_users SET last_at = (SELECT max(last_at) FROM rollup_place_users WHERE user_id = OLD.user_id AND country = OLD.country)
		WHERE country = OLD.country AND user_id = OLD.user_id;
	DELETE FROM rollup_region_users WHERE user_id = OLD.user_id AND country IS OLD.country AND region = OLD.region
		AND NOT EXISTS (SELECT 1 FROM rollup_place_users WHERE user_id = OLD.user_id AND country IS OLD.country AND region = OLD.region);
	UPDATE rollup_region_users SET last_at = (SELECT max(last_at) FROM rollup_place_users WHERE user_id = OLD.user_id AND country IS OLD.country AND region = OLD.region)
		WHERE user_id = OLD.user_id AND country IS OLD.country AND region = OLD.region;
END
