CREATE TABLE `site_settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`adverts_enabled` integer DEFAULT true NOT NULL,
	`advert_chance_percent` integer DEFAULT 30 NOT NULL,
	`promotions_seeded` integer DEFAULT false NOT NULL
);
