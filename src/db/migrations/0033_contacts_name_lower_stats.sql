-- Hand-written (drizzle's schema cannot declare it): statistics on the lower-cased name, so the planner knows how
-- many contacts a name's start matches (the list's search of one or two characters, docs/contacts.md). The
-- partial index contacts_owner_name_start_idx gives it none (PostgreSQL reads expression statistics only from
-- indexes without a WHERE); without them a start no one has was read by walking every contact in number order.
CREATE STATISTICS IF NOT EXISTS "contacts_name_lower_stats" ON (lower("name")) FROM "contacts";
