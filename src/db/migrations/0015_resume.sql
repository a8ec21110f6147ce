ALTER TABLE "apps" ADD COLUMN "resume_on_redial" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "resume_window_minutes" integer DEFAULT 5 NOT NULL;