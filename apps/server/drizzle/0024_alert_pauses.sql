CREATE TABLE "alert_pauses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"sensor_id" uuid,
	"site_id" uuid,
	"reason" text NOT NULL,
	"from" timestamp with time zone NOT NULL,
	"until" timestamp with time zone NOT NULL,
	"created_by" uuid
);
--> statement-breakpoint
ALTER TABLE "alert_pauses" ADD CONSTRAINT "alert_pauses_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_pauses" ADD CONSTRAINT "alert_pauses_sensor_id_sensors_id_fk" FOREIGN KEY ("sensor_id") REFERENCES "public"."sensors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_pauses" ADD CONSTRAINT "alert_pauses_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_pauses_organization_until_idx" ON "alert_pauses" USING btree ("organization_id","until");