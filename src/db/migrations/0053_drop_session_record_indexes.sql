DROP INDEX "session_records_app_cause_idx";--> statement-breakpoint
DROP INDEX "session_records_session_idx";