CREATE TABLE "contacts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"msisdn" text NOT NULL,
	"name" text,
	"language" text,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"first_seen_ussd" timestamp (3) with time zone,
	"last_seen_ussd" timestamp (3) with time zone,
	"first_seen_whatsapp" timestamp (3) with time zone,
	"last_seen_whatsapp" timestamp (3) with time zone,
	"first_seen_sms" timestamp (3) with time zone,
	"last_seen_sms" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "menus" ADD COLUMN "save_to_contact" text;--> statement-breakpoint
ALTER TABLE "session_records" ADD COLUMN "contact_msisdn" text;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_owner_msisdn_idx" ON "contacts" USING btree ("owner_id","msisdn");--> statement-breakpoint
CREATE INDEX "contacts_owner_msisdn_prefix_idx" ON "contacts" USING btree ("owner_id","msisdn" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "session_records_contact_idx" ON "session_records" USING btree ("contact_msisdn","ended_at");