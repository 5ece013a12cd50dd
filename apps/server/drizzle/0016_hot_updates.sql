-- Rows rewritten at every reading (a device's last contact, a key's latest value) leave room on
-- their page, so the new version stays beside the old one without touching the indexes (a HOT
-- update). The embedded database runs no autovacuum: this is what keeps their indexes small.
-- Pages already full take the setting as they are rewritten.
ALTER TABLE "latest_values" SET (fillfactor = 70);--> statement-breakpoint
ALTER TABLE "sensors" SET (fillfactor = 70);--> statement-breakpoint
ALTER TABLE "emitters" SET (fillfactor = 70);
