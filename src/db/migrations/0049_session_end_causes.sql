ALTER TABLE "apps" ADD COLUMN "gateway_connections" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "session_records" ADD COLUMN "end_cause" text;--> statement-breakpoint
ALTER TABLE "session_records" ADD COLUMN "gateway_duration_ms" integer;--> statement-breakpoint
ALTER TABLE "session_records" ADD COLUMN "gateway_cost" text;--> statement-breakpoint
ALTER TABLE "session_records" ADD COLUMN "gateway_words" text;--> statement-breakpoint
ALTER TABLE "session_records" ADD COLUMN "hop_ms" integer[];--> statement-breakpoint
ALTER TABLE "session_records" ADD COLUMN "action_ms" integer[];--> statement-breakpoint
CREATE INDEX "session_records_app_cause_idx" ON "session_records" USING btree ("app_id","end_cause","ended_at");--> statement-breakpoint
CREATE INDEX "session_records_session_idx" ON "session_records" USING btree ("app_id","session_id");