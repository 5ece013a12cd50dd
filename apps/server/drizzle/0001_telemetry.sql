CREATE TABLE "device_credentials" (
	"device_id" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"organization_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "latest_values" (
	"device_id" uuid NOT NULL,
	"key" text NOT NULL,
	"value" double precision NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	CONSTRAINT "latest_values_device_id_key_pk" PRIMARY KEY("device_id","key")
);
--> statement-breakpoint
CREATE TABLE "readings" (
	"device_id" uuid NOT NULL,
	"key" text NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"value" double precision NOT NULL,
	"reading_id" text
);
--> statement-breakpoint
ALTER TABLE "emitters" ADD COLUMN "serial" text;--> statement-breakpoint
ALTER TABLE "emitters" ADD COLUMN "model" text;--> statement-breakpoint
ALTER TABLE "emitters" ADD COLUMN "last_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "emitters" ADD COLUMN "battery" real;--> statement-breakpoint
ALTER TABLE "emitters" ADD COLUMN "inactivity_timeout_seconds" integer DEFAULT 600 NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "installation_key" text;--> statement-breakpoint
ALTER TABLE "sensors" ADD COLUMN "serial" text;--> statement-breakpoint
ALTER TABLE "sensors" ADD COLUMN "model" text;--> statement-breakpoint
ALTER TABLE "sensors" ADD COLUMN "last_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sensors" ADD COLUMN "battery" real;--> statement-breakpoint
ALTER TABLE "sensors" ADD COLUMN "inactivity_timeout_seconds" integer DEFAULT 600 NOT NULL;--> statement-breakpoint
ALTER TABLE "sensors" ADD COLUMN "emitter_id" uuid;--> statement-breakpoint
ALTER TABLE "device_credentials" ADD CONSTRAINT "device_credentials_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "device_credentials_token_hash_unique" ON "device_credentials" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "readings_device_key_ts_idx" ON "readings" USING btree ("device_id","key","ts");--> statement-breakpoint
CREATE UNIQUE INDEX "readings_dedup_unique" ON "readings" USING btree ("device_id","reading_id","key") WHERE "readings"."reading_id" is not null;--> statement-breakpoint
CREATE INDEX "readings_ts_brin" ON "readings" USING brin ("ts");--> statement-breakpoint
ALTER TABLE "sensors" ADD CONSTRAINT "sensors_emitter_id_emitters_id_fk" FOREIGN KEY ("emitter_id") REFERENCES "public"."emitters"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "emitters_organization_serial_unique" ON "emitters" USING btree ("organization_id","serial");--> statement-breakpoint
CREATE UNIQUE INDEX "organizations_installation_key_unique" ON "organizations" USING btree ("installation_key");--> statement-breakpoint
CREATE UNIQUE INDEX "sensors_organization_serial_unique" ON "sensors" USING btree ("organization_id","serial");