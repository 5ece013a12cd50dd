ALTER TABLE "emitters" ADD COLUMN "offline_announced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sensors" ADD COLUMN "offline_announced_at" timestamp with time zone;--> statement-breakpoint
-- Devices already silent were announced by the job that ran before this column existed.
UPDATE "emitters" SET "offline_announced_at" = now() WHERE "last_seen_at" + make_interval(secs => "inactivity_timeout_seconds") <= now();--> statement-breakpoint
UPDATE "sensors" SET "offline_announced_at" = now() WHERE "last_seen_at" + make_interval(secs => "inactivity_timeout_seconds") <= now();
