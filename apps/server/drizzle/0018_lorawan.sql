CREATE TABLE "lorawan_devices" (
	"organization_id" uuid NOT NULL,
	"dev_eui" text NOT NULL,
	"sensor_id" uuid NOT NULL,
	"codec" text NOT NULL,
	"last_uplink_at" timestamp with time zone,
	"rssi" real,
	"snr" real,
	"gateway" text,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lorawan_devices_organization_id_dev_eui_pk" PRIMARY KEY("organization_id","dev_eui")
);
--> statement-breakpoint
CREATE TABLE "lorawan_integrations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"secret_hash" text NOT NULL,
	"last_event_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lorawan_pending" (
	"organization_id" uuid NOT NULL,
	"dev_eui" text NOT NULL,
	"integration_id" uuid NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"uplinks" integer DEFAULT 1 NOT NULL,
	"brand" text,
	"model" text,
	"f_port" integer,
	"payload_hex" text,
	CONSTRAINT "lorawan_pending_organization_id_dev_eui_pk" PRIMARY KEY("organization_id","dev_eui")
);
--> statement-breakpoint
ALTER TABLE "lorawan_devices" ADD CONSTRAINT "lorawan_devices_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lorawan_devices" ADD CONSTRAINT "lorawan_devices_sensor_id_sensors_id_fk" FOREIGN KEY ("sensor_id") REFERENCES "public"."sensors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lorawan_integrations" ADD CONSTRAINT "lorawan_integrations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lorawan_pending" ADD CONSTRAINT "lorawan_pending_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lorawan_pending" ADD CONSTRAINT "lorawan_pending_integration_id_lorawan_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."lorawan_integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "lorawan_devices_sensor_unique" ON "lorawan_devices" USING btree ("sensor_id");--> statement-breakpoint
CREATE INDEX "lorawan_integrations_organization_idx" ON "lorawan_integrations" USING btree ("organization_id","created_at");