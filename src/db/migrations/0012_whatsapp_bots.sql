CREATE TABLE "whatsapp_auth_keys" (
	"link_id" uuid NOT NULL,
	"type" text NOT NULL,
	"key_id" text NOT NULL,
	"value" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "whatsapp_auth_keys_link_id_type_key_id_pk" PRIMARY KEY("link_id","type","key_id")
);
--> statement-breakpoint
CREATE TABLE "whatsapp_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"app_id" text NOT NULL,
	"connector" text NOT NULL,
	"mobile_number" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"qr_code" text,
	"status_message" text DEFAULT '' NOT NULL,
	"external_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"connected_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "apps_user_idx";--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "channel" text DEFAULT 'ussd' NOT NULL;--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "status" text DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapp_auth_keys" ADD CONSTRAINT "whatsapp_auth_keys_link_id_whatsapp_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."whatsapp_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_links" ADD CONSTRAINT "whatsapp_links_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "whatsapp_links_app_idx" ON "whatsapp_links" USING btree ("app_id");--> statement-breakpoint
CREATE UNIQUE INDEX "whatsapp_links_external_uq" ON "whatsapp_links" USING btree ("connector","external_id");--> statement-breakpoint
CREATE INDEX "apps_user_idx" ON "apps" USING btree ("user_id","channel");