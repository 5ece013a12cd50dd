ALTER TABLE "lorawan_integrations" ADD COLUMN "mqtt_server" text;--> statement-breakpoint
ALTER TABLE "lorawan_integrations" ADD COLUMN "mqtt_username" text;--> statement-breakpoint
ALTER TABLE "lorawan_integrations" ADD COLUMN "mqtt_password" text;--> statement-breakpoint
ALTER TABLE "lorawan_integrations" ADD COLUMN "mqtt_state" text;--> statement-breakpoint
ALTER TABLE "lorawan_integrations" ADD COLUMN "mqtt_error" text;