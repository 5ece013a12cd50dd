CREATE TABLE "sensor_calibrations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"sensor_id" uuid NOT NULL,
	"verified_at" timestamp with time zone NOT NULL,
	"method" text NOT NULL,
	"measured_offset" double precision NOT NULL,
	"next_due_at" timestamp with time zone,
	"note" text,
	"certificate" "bytea",
	"certificate_name" text,
	"certificate_type" text,
	"certificate_sha256" text,
	"recorded_by" uuid,
	"recorded_by_name" text NOT NULL,
	"reminded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sensor_calibrations" ADD CONSTRAINT "sensor_calibrations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sensor_calibrations" ADD CONSTRAINT "sensor_calibrations_sensor_id_sensors_id_fk" FOREIGN KEY ("sensor_id") REFERENCES "public"."sensors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sensor_calibrations" ADD CONSTRAINT "sensor_calibrations_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sensor_calibrations_sensor_verified_idx" ON "sensor_calibrations" USING btree ("sensor_id","verified_at");--> statement-breakpoint
CREATE INDEX "sensor_calibrations_due_idx" ON "sensor_calibrations" USING btree ("next_due_at");