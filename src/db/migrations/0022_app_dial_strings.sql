-- ---- hand-written (dialstrings): an account's apps that already share a dial string keep the oldest's ----
-- The newer apps of a pair lose the dial string (empty, Custom Short Code mode): their owner types another on App
-- Settings, which refuses a dial string another of the account's apps uses (docs/shortcodes.md).
UPDATE "apps" SET "short_code" = '', "custom_short_code" = '', "base_short_code" = '', "connection_mode" = 'existing-shortcode'
WHERE "id" IN (
  SELECT "id" FROM (
    SELECT "id", row_number() OVER (PARTITION BY "user_id", "short_code" ORDER BY "created_at", "id") AS "n"
    FROM "apps" WHERE "channel" = 'ussd' AND "is_template" = false AND "short_code" <> ''
  ) AS "ranked" WHERE "n" > 1
);--> statement-breakpoint
CREATE UNIQUE INDEX "apps_owner_short_code_uq" ON "apps" USING btree ("user_id","short_code") WHERE "apps"."channel" = 'ussd' and "apps"."is_template" = false and "apps"."short_code" <> '';
