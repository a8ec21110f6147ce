-- Session events say why the session ended (`endCause`, shared/session-ends.ts; null on a record kept from before
-- causes were recorded). What a gateway's later notice adds to the record (duration, cost) is not in the event.
CREATE OR REPLACE FUNCTION "webhook_session_events"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "webhook_deliveries" ("app_id", "event_id", "event_type", "data", "occurred_at", "next_attempt_at", "created_at")
  SELECT r."app_id", 'evt_ses_' || r."id", 'session.' || r."status",
    jsonb_build_object(
      'sessionId', r."session_id", 'environment', r."environment", 'gateway', r."gateway", 'mobile', r."mobile",
      'network', r."network", 'serviceCode', r."service_code", 'lastMenu', m."user_defined_name",
      'lastMenuId', r."last_menu", 'inputs', r."inputs", 'hopCount', r."hop_count", 'endCause', r."end_cause",
      'startedAt', to_char(r."started_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'endedAt', to_char(r."ended_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
    r."ended_at", r."ended_at", r."ended_at"
  FROM "recorded_sessions" r
  JOIN "webhooks" w ON w."app_id" = r."app_id"
  LEFT JOIN "menus" m ON m."app_id" = r."app_id" AND m."id"::text = r."last_menu"
  WHERE w."is_enabled" AND w."events" @> jsonb_build_array('session.' || r."status")
  ON CONFLICT ("event_id") DO NOTHING;
  RETURN NULL;
END
$$;
