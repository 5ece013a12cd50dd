-- Written to run on a database that already has these columns (a working copy that ran them under another number).
CREATE TABLE IF NOT EXISTS "operator_audit" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"operator_id" uuid,
	"operator_email" text,
	"action" text NOT NULL,
	"organization_id" uuid,
	"organization_name" text,
	"details" jsonb
);
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN IF NOT EXISTS "status" text DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN IF NOT EXISTS "erases_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN IF NOT EXISTS "erasure_claimed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN IF NOT EXISTS "plan" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN IF NOT EXISTS "quota_sensors" integer;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN IF NOT EXISTS "quota_members" integer;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN IF NOT EXISTS "quota_sms_per_month" integer;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN IF NOT EXISTS "internal" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "operator" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "operator_audit_at_idx" ON "operator_audit" USING btree ("at");--> statement-breakpoint
CREATE OR REPLACE FUNCTION "audit_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- The erasure of an organization (docs/api.md, Opérateur) deletes its trail, and only that one.
  IF TG_OP = 'DELETE' THEN
    IF current_setting('vigie.erasing_organization', true) = OLD.organization_id::text THEN
      RETURN OLD;
    END IF;
  END IF;
  RAISE EXCEPTION 'Le journal d''audit ne se modifie pas : on y ajoute seulement.';
END;
$$;
