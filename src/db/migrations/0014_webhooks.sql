CREATE TABLE "webhook_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"app_id" text NOT NULL,
	"event_id" text NOT NULL,
	"event_type" text NOT NULL,
	"data" jsonb NOT NULL,
	"occurred_at" timestamp (3) with time zone NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone,
	"last_attempt_at" timestamp (3) with time zone,
	"last_response_status" integer,
	"last_response_excerpt" text,
	"last_duration_ms" integer,
	"last_error" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_deliveries_event_id_unique" UNIQUE("event_id")
);
--> statement-breakpoint
CREATE TABLE "webhooks" (
	"app_id" text PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"events" jsonb NOT NULL,
	"is_enabled" boolean DEFAULT true NOT NULL,
	"secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_app_idx" ON "webhook_deliveries" USING btree ("app_id","created_at");--> statement-breakpoint
-- Session events for webhooks are queued by the statement that records the sessions' ends (the event sink's
-- COPY), so a hop never waits for them and none is lost between the record and its event. One INSERT per
-- statement (a transition table), joined to the few apps with an enabled webhook that takes the event type.
-- The event id is derived from the session record's id: stable, and unique by the constraint.
CREATE FUNCTION "webhook_session_events"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "webhook_deliveries" ("app_id", "event_id", "event_type", "data", "occurred_at", "next_attempt_at", "created_at")
  SELECT r."app_id", 'evt_ses_' || r."id", 'session.' || r."status",
    jsonb_build_object(
      'sessionId', r."session_id", 'environment', r."environment", 'gateway', r."gateway", 'mobile', r."mobile",
      'network', r."network", 'serviceCode', r."service_code", 'lastMenu', r."last_menu", 'inputs', r."inputs",
      'hopCount', r."hop_count",
      'startedAt', to_char(r."started_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'endedAt', to_char(r."ended_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
    r."ended_at", r."ended_at", r."ended_at"
  FROM "recorded_sessions" r
  JOIN "webhooks" w ON w."app_id" = r."app_id"
  WHERE w."is_enabled" AND w."events" @> jsonb_build_array('session.' || r."status")
  ON CONFLICT ("event_id") DO NOTHING;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "session_records_webhook_events" AFTER INSERT ON "session_records"
  REFERENCING NEW TABLE AS "recorded_sessions" FOR EACH STATEMENT EXECUTE FUNCTION "webhook_session_events"();
