CREATE TABLE "rule_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"condition" jsonb NOT NULL,
	"delay_seconds" integer DEFAULT 0 NOT NULL,
	"hysteresis" double precision DEFAULT 0 NOT NULL,
	"schedule" text DEFAULT 'always' NOT NULL,
	"severity" text DEFAULT 'critical' NOT NULL,
	"preset" text,
	"locked" boolean DEFAULT true NOT NULL,
	"site_ids" jsonb NOT NULL,
	"region_ids" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alert_rules" ADD COLUMN "template_id" uuid;--> statement-breakpoint
ALTER TABLE "rule_templates" ADD CONSTRAINT "rule_templates_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rule_templates_organization_idx" ON "rule_templates" USING btree ("organization_id","created_at");--> statement-breakpoint
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_template_id_rule_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."rule_templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alert_rules_template_site_unique" ON "alert_rules" USING btree ("template_id","site_id") WHERE "alert_rules"."template_id" is not null;