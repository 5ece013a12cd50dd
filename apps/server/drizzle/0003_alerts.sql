CREATE TABLE "alert_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"alert_id" uuid NOT NULL,
	"type" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"user_id" uuid,
	"text" text,
	"key" text
);
--> statement-breakpoint
CREATE TABLE "alert_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"sensor_id" uuid,
	"site_id" uuid,
	"condition" jsonb NOT NULL,
	"delay_seconds" integer DEFAULT 0 NOT NULL,
	"hysteresis" double precision DEFAULT 0 NOT NULL,
	"schedule" text DEFAULT 'always' NOT NULL,
	"severity" text DEFAULT 'critical' NOT NULL,
	"preset" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_tracks" (
	"rule_id" uuid NOT NULL,
	"sensor_id" uuid NOT NULL,
	"state" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_tracks_rule_id_sensor_id_pk" PRIMARY KEY("rule_id","sensor_id")
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"rule_id" uuid NOT NULL,
	"sensor_id" uuid NOT NULL,
	"site_id" uuid,
	"status" text NOT NULL,
	"severity" text NOT NULL,
	"key" text,
	"opened_at" timestamp with time zone NOT NULL,
	"acknowledged_at" timestamp with time zone,
	"acknowledged_by" uuid,
	"resolved_at" timestamp with time zone,
	"resolution" text,
	"peak" double precision,
	"last" double precision
);
--> statement-breakpoint
CREATE TABLE "notification_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"idempotency_key" text NOT NULL,
	"channel" text NOT NULL,
	"target" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_policies" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"steps" jsonb NOT NULL,
	"repeat_minutes" integer,
	"reacknowledge_minutes" integer NOT NULL,
	"webhook_url" text,
	"webhook_secret" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sites" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"timezone" text DEFAULT 'Europe/Paris' NOT NULL,
	"opening_hours" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "emitters" ADD COLUMN "site_id" uuid;--> statement-breakpoint
ALTER TABLE "sensors" ADD COLUMN "site_id" uuid;--> statement-breakpoint
-- Every organization gets its default site, and its existing devices move there.
INSERT INTO "sites" ("organization_id", "name", "timezone", "opening_hours")
SELECT "id", 'Magasin principal', 'Europe/Paris',
  '{"mon":[["09:00","19:00"]],"tue":[["09:00","19:00"]],"wed":[["09:00","19:00"]],"thu":[["09:00","19:00"]],"fri":[["09:00","19:00"]],"sat":[["09:00","19:00"]],"sun":[]}'::jsonb
FROM "organizations";--> statement-breakpoint
UPDATE "emitters" SET "site_id" = "sites"."id" FROM "sites" WHERE "sites"."organization_id" = "emitters"."organization_id";--> statement-breakpoint
UPDATE "sensors" SET "site_id" = "sites"."id" FROM "sites" WHERE "sites"."organization_id" = "sensors"."organization_id";--> statement-breakpoint
ALTER TABLE "emitters" ALTER COLUMN "site_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "sensors" ALTER COLUMN "site_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_events" ADD CONSTRAINT "alert_events_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_sensor_id_sensors_id_fk" FOREIGN KEY ("sensor_id") REFERENCES "public"."sensors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_tracks" ADD CONSTRAINT "alert_tracks_rule_id_alert_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."alert_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_outbox" ADD CONSTRAINT "notification_outbox_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_policies" ADD CONSTRAINT "notification_policies_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_events_alert_idx" ON "alert_events" USING btree ("alert_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "alert_events_key_unique" ON "alert_events" USING btree ("key") WHERE "alert_events"."key" is not null;--> statement-breakpoint
CREATE INDEX "alert_rules_organization_idx" ON "alert_rules" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "alert_rules_sensor_idx" ON "alert_rules" USING btree ("sensor_id");--> statement-breakpoint
CREATE INDEX "alert_rules_site_idx" ON "alert_rules" USING btree ("site_id");--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_one_active_per_rule_sensor" ON "alerts" USING btree ("rule_id","sensor_id") WHERE "alerts"."status" <> 'resolved';--> statement-breakpoint
CREATE INDEX "alerts_organization_opened_idx" ON "alerts" USING btree ("organization_id","opened_at");--> statement-breakpoint
CREATE INDEX "alerts_sensor_idx" ON "alerts" USING btree ("sensor_id","opened_at");--> statement-breakpoint
CREATE UNIQUE INDEX "notification_outbox_key_unique" ON "notification_outbox" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "notification_outbox_due_idx" ON "notification_outbox" USING btree ("next_attempt_at") WHERE "notification_outbox"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "sites_organization_created_idx" ON "sites" USING btree ("organization_id","created_at");--> statement-breakpoint
ALTER TABLE "emitters" ADD CONSTRAINT "emitters_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sensors" ADD CONSTRAINT "sensors_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "emitters_site_idx" ON "emitters" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "sensors_site_idx" ON "sensors" USING btree ("site_id");