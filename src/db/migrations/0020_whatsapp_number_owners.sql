CREATE TABLE "whatsapp_number_owners" (
	"phone_number_id" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"proven_by" text NOT NULL,
	"bound_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "whatsapp_number_owners" ADD CONSTRAINT "whatsapp_number_owners_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Hand-written (not generated): numbers already CONNECTED through the Cloud API belong to their bot's account.
INSERT INTO "whatsapp_number_owners" ("phone_number_id", "user_id", "proven_by")
SELECT l."external_id", a."user_id", 'installation'
FROM "whatsapp_links" l JOIN "apps" a ON a."id" = l."app_id"
WHERE l."connector" = 'cloud' AND l."status" = 'CONNECTED' AND l."external_id" IS NOT NULL
ON CONFLICT DO NOTHING;
