ALTER TABLE "app_versions" ADD COLUMN "name" text;--> statement-breakpoint
ALTER TABLE "app_versions" ADD COLUMN "note" text;