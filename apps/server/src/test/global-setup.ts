import { preparePgliteTemplate } from './pglite-template.ts';

/**
 * Says once, at the top of the run, which database the API suite runs on; on the embedded one,
 * saves a migrated database that each test's in-memory database starts from.
 */
export default async function setup(): Promise<void> {
  const url = process.env['DATABASE_URL'];
  const target = url ? `PostgreSQL (${new URL(url).pathname.slice(1)})` : 'PGlite (base embarquée)';
  console.log(`\nSuite d'API sur ${target}\n`);
  if (!url) await preparePgliteTemplate();
}
