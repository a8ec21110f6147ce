ALTER TABLE "apps" ADD COLUMN "languages" jsonb;--> statement-breakpoint
ALTER TABLE "menus" ADD COLUMN "translations" jsonb;