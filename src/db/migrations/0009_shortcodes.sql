CREATE TABLE "shortcode_extensions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"country" text NOT NULL,
	"provider_id" uuid NOT NULL,
	"short_code" text NOT NULL,
	"extension" text DEFAULT '' NOT NULL,
	"ext_length" integer DEFAULT 0 NOT NULL,
	"request_method" text NOT NULL,
	"price" numeric(12, 2) NOT NULL,
	"currency" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shortcode_providers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"provider_name" text NOT NULL,
	"provider_key" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shortcode_providers_provider_key_unique" UNIQUE("provider_key")
);
--> statement-breakpoint
CREATE TABLE "shortcode_purchases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"extension_id" uuid,
	"provider_key" text NOT NULL,
	"dial_string" text NOT NULL,
	"country" text NOT NULL,
	"request_method" text NOT NULL,
	"price" numeric(12, 2) NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"reserved_until" timestamp (3) with time zone,
	"start_date" timestamp (3) with time zone,
	"expiry_date" timestamp (3) with time zone,
	"app_id" text,
	"linked_app_env" text,
	"provisioned" boolean DEFAULT false NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shortcode_reminders" (
	"purchase_id" uuid NOT NULL,
	"expiry_date" timestamp (3) with time zone NOT NULL,
	"days_before" integer NOT NULL,
	"sent_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shortcode_reminders_purchase_id_expiry_date_days_before_pk" PRIMARY KEY("purchase_id","expiry_date","days_before")
);
--> statement-breakpoint
ALTER TABLE "shortcode_extensions" ADD CONSTRAINT "shortcode_extensions_provider_id_shortcode_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."shortcode_providers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shortcode_purchases" ADD CONSTRAINT "shortcode_purchases_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shortcode_purchases" ADD CONSTRAINT "shortcode_purchases_extension_id_shortcode_extensions_id_fk" FOREIGN KEY ("extension_id") REFERENCES "public"."shortcode_extensions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shortcode_purchases" ADD CONSTRAINT "shortcode_purchases_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shortcode_reminders" ADD CONSTRAINT "shortcode_reminders_purchase_id_shortcode_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."shortcode_purchases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "shortcode_extensions_uq" ON "shortcode_extensions" USING btree ("provider_id","short_code","extension","ext_length");--> statement-breakpoint
CREATE INDEX "shortcode_extensions_country_idx" ON "shortcode_extensions" USING btree ("country");--> statement-breakpoint
CREATE UNIQUE INDEX "shortcode_purchases_holder_uq" ON "shortcode_purchases" USING btree ("provider_key","dial_string") WHERE "shortcode_purchases"."status" in ('reserved', 'active');--> statement-breakpoint
CREATE INDEX "shortcode_purchases_user_idx" ON "shortcode_purchases" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "shortcode_purchases_extension_idx" ON "shortcode_purchases" USING btree ("extension_id");--> statement-breakpoint
CREATE INDEX "shortcode_purchases_expiry_idx" ON "shortcode_purchases" USING btree ("expiry_date") WHERE "shortcode_purchases"."status" = 'active';