CREATE TABLE "whatsapp_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"app_id" text NOT NULL,
	"link_id" text NOT NULL,
	"environment" text NOT NULL,
	"caller" text,
	"to_number" text NOT NULL,
	"session_id" text DEFAULT '' NOT NULL,
	"provider_message_id" text NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'sent' NOT NULL,
	"failure_code" integer,
	"failure_reason" text DEFAULT '' NOT NULL,
	"sent_at" timestamp (3) with time zone NOT NULL,
	"delivered_at" timestamp (3) with time zone,
	"read_at" timestamp (3) with time zone,
	"failed_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "whatsapp_messages_provider_uq" ON "whatsapp_messages" USING btree ("link_id","provider_message_id");--> statement-breakpoint
CREATE INDEX "whatsapp_messages_app_time_idx" ON "whatsapp_messages" USING btree ("app_id","sent_at");--> statement-breakpoint
CREATE INDEX "whatsapp_messages_session_idx" ON "whatsapp_messages" USING btree ("app_id","session_id");