ALTER TABLE "users" ADD COLUMN "agent_of" uuid;--> statement-breakpoint
ALTER TABLE "inbox_messages" ADD COLUMN "author_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_agent_of_users_id_fk" FOREIGN KEY ("agent_of") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "users_agent_of_idx" ON "users" USING btree ("agent_of");