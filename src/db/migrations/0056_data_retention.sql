CREATE TABLE "daily_rollups" (
	"name" text PRIMARY KEY NOT NULL,
	"through" date NOT NULL
);
--> statement-breakpoint
CREATE TABLE "session_day_counts" (
	"app_id" text NOT NULL,
	"day" date NOT NULL,
	"environment" text NOT NULL,
	"network" text NOT NULL,
	"last_menu" text NOT NULL,
	"status" text NOT NULL,
	"end_cause" text NOT NULL,
	"sessions" integer NOT NULL,
	CONSTRAINT "session_day_counts_app_id_day_environment_network_last_menu_status_end_cause_pk" PRIMARY KEY("app_id","day","environment","network","last_menu","status","end_cause")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "retention" jsonb;--> statement-breakpoint
CREATE INDEX "sms_replies_owner_time_idx" ON "sms_replies" USING btree ("owner_id","received_at");