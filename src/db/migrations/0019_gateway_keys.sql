ALTER TABLE "apps" ADD COLUMN "gateway_key" text;--> statement-breakpoint
ALTER TABLE "shortcode_providers" ADD COLUMN "accepts_unauthenticated" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "shortcode_providers" ADD COLUMN "allowed_sources" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
-- ---- hand-written (gwauth): existing providers get a key and keep their bare URL working ----
-- drizzle-kit wrote `ADD COLUMN "gateway_key" text NOT NULL`, which fails on existing rows. The column is added
-- empty, every existing provider gets a key of 256 bits (sha256 over three random UUIDs, 366 random bits, as
-- base64url like the server's randomBytes(32)), then it becomes NOT NULL. Existing providers keep accepting the
-- bare URL (the legacy flag on) so no live traffic breaks at the upgrade; the server logs a warning for each at
-- start and the admin screens show one until an admin turns it off (docs/shortcodes.md, "Provider keys").
ALTER TABLE "shortcode_providers" ADD COLUMN "gateway_key" text;--> statement-breakpoint
UPDATE "shortcode_providers" SET "gateway_key" = translate(rtrim(encode(sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')), 'base64'), '='), '+/', '-_'), "accepts_unauthenticated" = true;--> statement-breakpoint
ALTER TABLE "shortcode_providers" ALTER COLUMN "gateway_key" SET NOT NULL;
