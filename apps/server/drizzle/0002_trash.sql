ALTER TABLE "emitters" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sensors" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "emitters_deleted_at_idx" ON "emitters" USING btree ("deleted_at") WHERE "emitters"."deleted_at" is not null;--> statement-breakpoint
CREATE INDEX "sensors_deleted_at_idx" ON "sensors" USING btree ("deleted_at") WHERE "sensors"."deleted_at" is not null;