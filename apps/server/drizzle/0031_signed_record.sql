CREATE TABLE "reading_adjustments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"sensor_id" uuid NOT NULL,
	"calibration_id" uuid NOT NULL,
	"from_ts" timestamp with time zone NOT NULL,
	"to_ts" timestamp with time zone,
	"below_id" bigint NOT NULL,
	"delta" double precision NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sensor_calibrations" ADD COLUMN "applies_from" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reading_adjustments" ADD CONSTRAINT "reading_adjustments_sensor_id_sensors_id_fk" FOREIGN KEY ("sensor_id") REFERENCES "public"."sensors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reading_adjustments" ADD CONSTRAINT "reading_adjustments_calibration_id_sensor_calibrations_id_fk" FOREIGN KEY ("calibration_id") REFERENCES "public"."sensor_calibrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reading_adjustments_sensor_idx" ON "reading_adjustments" USING btree ("sensor_id");