ALTER TABLE "action_results" ADD COLUMN "caller" text;--> statement-breakpoint
ALTER TABLE "app_logs" ADD COLUMN "caller" text;--> statement-breakpoint
ALTER TABLE "session_inputs" ADD COLUMN "caller" text;--> statement-breakpoint
ALTER TABLE "session_records" ADD COLUMN "caller" text;