-- Custom SQL migration file, put your code below! --
-- media_bytes is keyed by (key, seq) from the next migration on. drizzle-kit cannot name the primary key it
-- replaces (PostgreSQL's own name for it, media_bytes_pkey), so it is dropped here.
ALTER TABLE "media_bytes" DROP CONSTRAINT "media_bytes_pkey";
