CREATE TABLE "subscriber_erasures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid,
	"actor_id" uuid NOT NULL,
	"actor_email" text NOT NULL,
	"msisdn" text NOT NULL,
	"anonymous" text NOT NULL,
	"reason" text NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"batches" integer DEFAULT 0 NOT NULL,
	"counts" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"failure" text,
	"started_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "subscriber_erasures" ADD CONSTRAINT "subscriber_erasures_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "subscriber_erasures_running_idx" ON "subscriber_erasures" USING btree (coalesce("owner_id"::text, ''),"msisdn") WHERE status = 'running';--> statement-breakpoint
CREATE INDEX "subscriber_erasures_owner_idx" ON "subscriber_erasures" USING btree ("owner_id","started_at");