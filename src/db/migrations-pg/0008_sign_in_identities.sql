CREATE TABLE "sign_in_identities" (
	"provider" text NOT NULL,
	"subject" text NOT NULL,
	"user_id" text NOT NULL,
	"email" text,
	"created_at" bigint NOT NULL,
	CONSTRAINT "sign_in_identities_provider_subject_pk" PRIMARY KEY("provider","subject")
);
--> statement-breakpoint
ALTER TABLE "sign_in_identities" ADD CONSTRAINT "sign_in_identities_userId_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sign_in_identities_user_id_idx" ON "sign_in_identities" USING btree ("user_id");