CREATE TABLE "whatsapp_first_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"app_id" text NOT NULL,
	"link_id" uuid NOT NULL,
	"msisdn" text NOT NULL,
	"entry_menu_id" text NOT NULL,
	"kind" text NOT NULL,
	"template_name" text,
	"template_language" text,
	"status" text DEFAULT 'sending' NOT NULL,
	"error" text DEFAULT '' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "whatsapp_windows" (
	"link_id" uuid NOT NULL,
	"msisdn" text NOT NULL,
	"last_inbound_at" timestamp (3) with time zone,
	"entry_menu_id" text,
	"entry_set_at" timestamp (3) with time zone,
	CONSTRAINT "whatsapp_windows_link_id_msisdn_pk" PRIMARY KEY("link_id","msisdn")
);
--> statement-breakpoint
ALTER TABLE "whatsapp_first_messages" ADD CONSTRAINT "whatsapp_first_messages_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_first_messages" ADD CONSTRAINT "whatsapp_first_messages_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_first_messages" ADD CONSTRAINT "whatsapp_first_messages_link_id_whatsapp_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."whatsapp_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_windows" ADD CONSTRAINT "whatsapp_windows_link_id_whatsapp_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."whatsapp_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "whatsapp_first_messages_app_idx" ON "whatsapp_first_messages" USING btree ("app_id","created_at");