CREATE TABLE "job_leases" (
	"name" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sensor_insights" (
	"sensor_id" uuid NOT NULL,
	"key" text NOT NULL,
	"organization_id" uuid NOT NULL,
	"computed_at" timestamp with time zone NOT NULL,
	"urgency" real NOT NULL,
	"insights" jsonb NOT NULL,
	CONSTRAINT "sensor_insights_sensor_id_key_pk" PRIMARY KEY("sensor_id","key")
);
--> statement-breakpoint
ALTER TABLE "sensor_insights" ADD CONSTRAINT "sensor_insights_sensor_id_sensors_id_fk" FOREIGN KEY ("sensor_id") REFERENCES "public"."sensors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sensor_insights" ADD CONSTRAINT "sensor_insights_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sensor_insights_organization_urgency_idx" ON "sensor_insights" USING btree ("organization_id","urgency");