-- Word search over finished sessions (mobile number and inputs) with a trigram index, so that
-- `... ilike '%word%'` is answered from the index instead of scanning every session of every app.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "session_records_search_trgm_idx" ON "session_records" USING gin ((("mobile" || ' ' || "inputs"::text)) gin_trgm_ops);
