CREATE TABLE "app_test_cases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"app_id" text NOT NULL,
	"name" text NOT NULL,
	"dial_string" text DEFAULT '' NOT NULL,
	"msisdn" text NOT NULL,
	"steps" jsonb NOT NULL,
	"stubs" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "app_test_cases" ADD CONSTRAINT "app_test_cases_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "app_test_cases_app_idx" ON "app_test_cases" USING btree ("app_id","created_at");