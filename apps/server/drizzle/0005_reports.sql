CREATE TABLE "reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"site_id" uuid NOT NULL,
	"month" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"created_by" uuid,
	"automatic" boolean DEFAULT false NOT NULL,
	"sha256" text NOT NULL,
	"pdf" "bytea" NOT NULL,
	"csv" "bytea" NOT NULL,
	"content" jsonb NOT NULL,
	"summary" jsonb NOT NULL,
	"signed_by" uuid,
	"signed_by_name" text,
	"signed_at" timestamp with time zone,
	"sign_comment" text
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "role" text DEFAULT 'admin' NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reports_organization_site_month_idx" ON "reports" USING btree ("organization_id","site_id","month");--> statement-breakpoint
CREATE UNIQUE INDEX "reports_one_automatic_per_site_month" ON "reports" USING btree ("site_id","month") WHERE "reports"."automatic";