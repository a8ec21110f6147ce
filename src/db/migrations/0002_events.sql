CREATE TABLE "action_results" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"session_id" text NOT NULL,
	"action_name" text NOT NULL,
	"menu_name" text NOT NULL,
	"plugin" text NOT NULL,
	"result" jsonb,
	"is_ok" integer DEFAULT 1 NOT NULL,
	"duration_ms" integer,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"session_id" text DEFAULT '' NOT NULL,
	"environment" text DEFAULT '' NOT NULL,
	"level" text NOT NULL,
	"type" text NOT NULL,
	"menu_id" text,
	"menu" text,
	"plugin" text,
	"action" text,
	"message" text NOT NULL,
	"data" jsonb,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "session_inputs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"session_id" text NOT NULL,
	"field_name" text NOT NULL,
	"field_value" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "session_records" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"session_id" text NOT NULL,
	"environment" text NOT NULL,
	"gateway" text NOT NULL,
	"mobile" text NOT NULL,
	"network" text NOT NULL,
	"service_code" text NOT NULL,
	"status" text NOT NULL,
	"last_menu" text,
	"inputs" jsonb NOT NULL,
	"hop_count" integer NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"ended_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "action_results_session_idx" ON "action_results" USING btree ("app_id","session_id");--> statement-breakpoint
CREATE INDEX "app_logs_app_time_idx" ON "app_logs" USING btree ("app_id","created_at");--> statement-breakpoint
CREATE INDEX "app_logs_session_idx" ON "app_logs" USING btree ("app_id","session_id");--> statement-breakpoint
CREATE INDEX "session_inputs_session_idx" ON "session_inputs" USING btree ("app_id","session_id");--> statement-breakpoint
CREATE INDEX "session_records_app_ended_idx" ON "session_records" USING btree ("app_id","status","ended_at");