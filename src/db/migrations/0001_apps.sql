CREATE TABLE "app_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"app_id" text NOT NULL,
	"number" integer NOT NULL,
	"definition" jsonb NOT NULL,
	"warnings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"rolled_back_from" integer,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "apps" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"app_name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"country" text NOT NULL,
	"use_template_tag" boolean DEFAULT false NOT NULL,
	"short_code" text NOT NULL,
	"connection_mode" text NOT NULL,
	"base_short_code" text DEFAULT '' NOT NULL,
	"custom_short_code" text DEFAULT '' NOT NULL,
	"screen_limit" integer DEFAULT 160 NOT NULL,
	"is_template" boolean DEFAULT false NOT NULL,
	"flag_icon" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "menus" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"app_id" text NOT NULL,
	"position" integer NOT NULL,
	"is_first" boolean DEFAULT false NOT NULL,
	"user_defined_name" text NOT NULL,
	"display_text" text NOT NULL,
	"header_text" text DEFAULT '' NOT NULL,
	"footer_text" text DEFAULT '' NOT NULL,
	"input_holder" text DEFAULT '' NOT NULL,
	"allow_go_back" boolean DEFAULT false NOT NULL,
	"go_back_input_indicator" text DEFAULT '' NOT NULL,
	"terminate" boolean DEFAULT false NOT NULL,
	"parent_menu_id" text,
	"switch_operations" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"actions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"input_validations" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "app_versions" ADD CONSTRAINT "app_versions_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_versions" ADD CONSTRAINT "app_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "apps" ADD CONSTRAINT "apps_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "menus" ADD CONSTRAINT "menus_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "app_versions_app_number_uq" ON "app_versions" USING btree ("app_id","number");--> statement-breakpoint
CREATE INDEX "apps_user_idx" ON "apps" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "menus_app_identifier_uq" ON "menus" USING btree ("app_id","user_defined_name");--> statement-breakpoint
CREATE INDEX "menus_app_position_idx" ON "menus" USING btree ("app_id","position");