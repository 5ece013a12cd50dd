ALTER TABLE "reports" ADD COLUMN "signed_pdf" "bytea";--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "signed_sha256" text;