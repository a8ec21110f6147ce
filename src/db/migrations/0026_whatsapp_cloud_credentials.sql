CREATE TABLE "whatsapp_cloud_credentials" (
	"link_id" uuid PRIMARY KEY NOT NULL,
	"phone_number_id" text NOT NULL,
	"waba_id" text,
	"access_token" text NOT NULL,
	"registration_pin" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "whatsapp_cloud_credentials" ADD CONSTRAINT "whatsapp_cloud_credentials_link_id_whatsapp_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."whatsapp_links"("id") ON DELETE cascade ON UPDATE no action;