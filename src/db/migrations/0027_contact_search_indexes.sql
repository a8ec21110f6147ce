CREATE INDEX "contacts_name_trgm_idx" ON "contacts" USING gin ("name" gin_trgm_ops) WHERE "contacts"."name" is not null;--> statement-breakpoint
CREATE INDEX "contacts_attributes_idx" ON "contacts" USING gin ("attributes" jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "contacts_consent_idx" ON "contacts" USING gin ("consent" jsonb_path_ops);