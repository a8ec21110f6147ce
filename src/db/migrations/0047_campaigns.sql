CREATE TABLE "audiences" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"name" text NOT NULL,
	"filter" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaign_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"campaign_id" uuid NOT NULL,
	"owner_id" uuid NOT NULL,
	"msisdn" text NOT NULL,
	"channel" text,
	"status" text NOT NULL,
	"reason" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"provider_message_id" text,
	"sms_message_id" uuid,
	"fell_back_at" timestamp (3) with time zone,
	"sent_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaign_pacing" (
	"key" text PRIMARY KEY NOT NULL,
	"next_at" timestamp (3) with time zone NOT NULL,
	"day_start" timestamp (3) with time zone,
	"day_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"audience_id" uuid,
	"filter" jsonb NOT NULL,
	"channels" text NOT NULL,
	"bot_id" text,
	"link_id" uuid,
	"template" jsonb,
	"entry_menu_id" text,
	"ussd_app_id" text,
	"sms_text" text,
	"sms_sender" text DEFAULT '' NOT NULL,
	"start_at" timestamp (3) with time zone,
	"send_window" jsonb,
	"time_zone" text DEFAULT 'UTC' NOT NULL,
	"paused_reason" text,
	"audience_size" integer,
	"loaded_until" text,
	"loaded_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp (3) with time zone,
	"finished_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "audiences" ADD CONSTRAINT "audiences_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_messages" ADD CONSTRAINT "campaign_messages_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_audience_id_audiences_id_fk" FOREIGN KEY ("audience_id") REFERENCES "public"."audiences"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "audiences_owner_name_idx" ON "audiences" USING btree ("owner_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_messages_contact_idx" ON "campaign_messages" USING btree ("campaign_id","msisdn");--> statement-breakpoint
CREATE INDEX "campaign_messages_due_idx" ON "campaign_messages" USING btree ("campaign_id","next_attempt_at") WHERE "campaign_messages"."status" = 'queued';--> statement-breakpoint
CREATE INDEX "campaign_messages_leased_idx" ON "campaign_messages" USING btree ("next_attempt_at") WHERE "campaign_messages"."status" in ('claimed', 'sending');--> statement-breakpoint
CREATE INDEX "campaign_messages_in_flight_idx" ON "campaign_messages" USING btree ("owner_id","msisdn") WHERE "campaign_messages"."status" in ('claimed', 'sending');--> statement-breakpoint
CREATE INDEX "campaign_messages_msisdn_idx" ON "campaign_messages" USING btree ("owner_id","msisdn");--> statement-breakpoint
CREATE INDEX "campaigns_owner_idx" ON "campaigns" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "campaigns_active_idx" ON "campaigns" USING btree ("status","start_at") WHERE "campaigns"."status" in ('scheduled', 'running');