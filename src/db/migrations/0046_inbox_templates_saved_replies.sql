CREATE TABLE "inbox_saved_replies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"title" text NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "inbox_messages" ADD COLUMN "template_name" text;--> statement-breakpoint
ALTER TABLE "inbox_messages" ADD COLUMN "template_language" text;--> statement-breakpoint
ALTER TABLE "inbox_saved_replies" ADD CONSTRAINT "inbox_saved_replies_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inbox_saved_replies_owner_idx" ON "inbox_saved_replies" USING btree ("owner_id","title");