CREATE TABLE "factory_devices" (
	"serial" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"model" text,
	"claim_code_hash" text NOT NULL,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	"organization_id" uuid,
	"device_id" uuid,
	"claimed_at" timestamp with time zone,
	"claimed_by" uuid
);
--> statement-breakpoint
ALTER TABLE "factory_devices" ADD CONSTRAINT "factory_devices_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "factory_devices" ADD CONSTRAINT "factory_devices_claimed_by_users_id_fk" FOREIGN KEY ("claimed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "factory_devices_organization_idx" ON "factory_devices" USING btree ("organization_id");