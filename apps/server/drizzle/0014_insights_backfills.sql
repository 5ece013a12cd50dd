CREATE TABLE "insights_backfills" (
	"sensor_id" uuid PRIMARY KEY NOT NULL,
	"backfilled_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "insights_backfills" ADD CONSTRAINT "insights_backfills_sensor_id_sensors_id_fk" FOREIGN KEY ("sensor_id") REFERENCES "public"."sensors"("id") ON DELETE cascade ON UPDATE no action;