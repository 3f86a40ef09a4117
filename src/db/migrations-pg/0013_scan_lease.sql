CREATE TABLE "library_scan_lease" (
	"name" text PRIMARY KEY NOT NULL,
	"holder" text,
	"expires_at" bigint NOT NULL,
	"asked" boolean NOT NULL,
	"asked_full" boolean NOT NULL,
	"scanned" bigint NOT NULL,
	"total" bigint NOT NULL
);
