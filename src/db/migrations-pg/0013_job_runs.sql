CREATE TABLE "job_runs" (
	"name" text NOT NULL,
	"slot" bigint NOT NULL,
	"started_at" bigint NOT NULL,
	CONSTRAINT "job_runs_name_slot_pk" PRIMARY KEY("name","slot")
);
