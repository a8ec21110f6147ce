CREATE TABLE "inbox_day_counts" (
	"app_id" text NOT NULL,
	"day" date NOT NULL,
	"opened" integer DEFAULT 0 NOT NULL,
	"answered" integer DEFAULT 0 NOT NULL,
	"closed" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "inbox_day_counts_app_id_day_pk" PRIMARY KEY("app_id","day")
);
--> statement-breakpoint
CREATE TABLE "message_day_counts" (
	"app_id" text NOT NULL,
	"day" date NOT NULL,
	"environment" text NOT NULL,
	"status" text NOT NULL,
	"failure_code" integer,
	"failure_reason" text NOT NULL,
	"messages" integer NOT NULL,
	CONSTRAINT "message_day_counts_uq" UNIQUE NULLS NOT DISTINCT("app_id","day","environment","status","failure_code","failure_reason")
);
