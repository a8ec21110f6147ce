CREATE TABLE "media_bytes" (
	"key" text PRIMARY KEY NOT NULL,
	"bytes" "bytea" NOT NULL,
	"mime_type" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "media_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"app_id" text,
	"kind" text NOT NULL,
	"mime_type" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"file_name" text,
	"caption" text,
	"source" text NOT NULL,
	"backend" text NOT NULL,
	"storage_key" text NOT NULL,
	"msisdn" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "media_files" ADD CONSTRAINT "media_files_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_files" ADD CONSTRAINT "media_files_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "media_files_owner_live_idx" ON "media_files" USING btree ("owner_id") WHERE "media_files"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "media_files_retention_idx" ON "media_files" USING btree ("created_at") WHERE "media_files"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "media_files_owner_msisdn_idx" ON "media_files" USING btree ("owner_id","msisdn");