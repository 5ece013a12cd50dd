CREATE TABLE "processes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"site_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"product" text NOT NULL,
	"sensor_id" uuid,
	"started_at" timestamp with time zone NOT NULL,
	"deadline" timestamp with time zone NOT NULL,
	"readings" jsonb NOT NULL,
	"status" text NOT NULL,
	"failure" text,
	"ended_at" timestamp with time zone,
	"started_by" uuid,
	"started_by_name" text NOT NULL,
	"alert_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "task_photos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"task_id" uuid NOT NULL,
	"content_type" text NOT NULL,
	"content" "bytea" NOT NULL,
	"sha256" text NOT NULL,
	"size" integer NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "task_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"site_ids" jsonb NOT NULL,
	"region_ids" jsonb NOT NULL,
	"items" jsonb NOT NULL,
	"schedule" jsonb NOT NULL,
	"severity" text NOT NULL,
	"locked" boolean DEFAULT false NOT NULL,
	"generated_until" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tasks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"template_id" uuid NOT NULL,
	"site_id" uuid NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"severity" text NOT NULL,
	"items" jsonb NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"window_ends_at" timestamp with time zone NOT NULL,
	"grace_ends_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"result" text,
	"completed_at" timestamp with time zone,
	"completed_by" uuid,
	"completed_by_name" text,
	"answers" jsonb,
	"comment" text,
	"alert_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alerts" ALTER COLUMN "rule_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "alerts" ALTER COLUMN "sensor_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "task_id" uuid;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "process_id" uuid;--> statement-breakpoint
ALTER TABLE "processes" ADD CONSTRAINT "processes_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "processes" ADD CONSTRAINT "processes_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "processes" ADD CONSTRAINT "processes_sensor_id_sensors_id_fk" FOREIGN KEY ("sensor_id") REFERENCES "public"."sensors"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "processes" ADD CONSTRAINT "processes_started_by_users_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_photos" ADD CONSTRAINT "task_photos_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_photos" ADD CONSTRAINT "task_photos_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_photos" ADD CONSTRAINT "task_photos_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_templates" ADD CONSTRAINT "task_templates_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_completed_by_users_id_fk" FOREIGN KEY ("completed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "processes_organization_site_started_idx" ON "processes" USING btree ("organization_id","site_id","started_at");--> statement-breakpoint
CREATE INDEX "processes_running_deadline_idx" ON "processes" USING btree ("deadline") WHERE "processes"."status" = 'running';--> statement-breakpoint
CREATE INDEX "task_photos_task_idx" ON "task_photos" USING btree ("task_id");--> statement-breakpoint
CREATE INDEX "task_templates_organization_idx" ON "task_templates" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "task_templates_horizon_idx" ON "task_templates" USING btree ("generated_until") WHERE "task_templates"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "tasks_template_site_due_unique" ON "tasks" USING btree ("template_id","site_id","due_at");--> statement-breakpoint
CREATE INDEX "tasks_organization_site_due_idx" ON "tasks" USING btree ("organization_id","site_id","due_at");--> statement-breakpoint
CREATE INDEX "tasks_pending_grace_idx" ON "tasks" USING btree ("grace_ends_at") WHERE "tasks"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_task_unique" ON "alerts" USING btree ("task_id") WHERE "alerts"."task_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_process_unique" ON "alerts" USING btree ("process_id") WHERE "alerts"."process_id" is not null;