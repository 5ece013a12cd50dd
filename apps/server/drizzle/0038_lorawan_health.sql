CREATE TABLE "lorawan_integration_hours" (
	"integration_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"messages" integer DEFAULT 0 NOT NULL,
	"refused" integer DEFAULT 0 NOT NULL,
	"last_at" timestamp with time zone,
	CONSTRAINT "lorawan_integration_hours_integration_id_hour_pk" PRIMARY KEY("integration_id","hour")
);
--> statement-breakpoint
CREATE TABLE "lorawan_integration_refusals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"integration_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"reason" text NOT NULL,
	"message" text NOT NULL,
	"dev_eui" text
);
--> statement-breakpoint
ALTER TABLE "lorawan_integration_hours" ADD CONSTRAINT "lorawan_integration_hours_integration_id_lorawan_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."lorawan_integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lorawan_integration_refusals" ADD CONSTRAINT "lorawan_integration_refusals_integration_id_lorawan_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."lorawan_integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lorawan_integration_refusals_integration_idx" ON "lorawan_integration_refusals" USING btree ("integration_id","id");