CREATE TABLE "sms_replies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"sms_message_id" uuid,
	"msisdn" text NOT NULL,
	"text" text NOT NULL,
	"provider" text NOT NULL,
	"provider_message_id" text NOT NULL,
	"received_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sms_messages" ADD COLUMN "delivery_status" text;--> statement-breakpoint
ALTER TABLE "sms_messages" ADD COLUMN "delivery_error" text;--> statement-breakpoint
ALTER TABLE "sms_messages" ADD COLUMN "delivered_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "whatsapp_links" ADD COLUMN "messaging_limit" text;--> statement-breakpoint
ALTER TABLE "sms_replies" ADD CONSTRAINT "sms_replies_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_replies" ADD CONSTRAINT "sms_replies_sms_message_id_sms_messages_id_fk" FOREIGN KEY ("sms_message_id") REFERENCES "public"."sms_messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sms_replies_provider_idx" ON "sms_replies" USING btree ("provider","provider_message_id");--> statement-breakpoint
CREATE INDEX "sms_replies_owner_msisdn_idx" ON "sms_replies" USING btree ("owner_id","msisdn","received_at");--> statement-breakpoint
CREATE INDEX "sms_replies_message_idx" ON "sms_replies" USING btree ("sms_message_id");--> statement-breakpoint
CREATE INDEX "sms_messages_provider_id_idx" ON "sms_messages" USING btree ("provider_message_id");--> statement-breakpoint
CREATE INDEX "sms_messages_recipient_idx" ON "sms_messages" USING btree ("recipient","sent_at");--> statement-breakpoint
CREATE INDEX "campaign_messages_sms_idx" ON "campaign_messages" USING btree ("sms_message_id") WHERE "campaign_messages"."sms_message_id" is not null;