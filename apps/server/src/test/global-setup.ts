/** Says once, at the top of the run, which database the API suite runs on. */
export default function setup(): void {
  const url = process.env['DATABASE_URL'];
  const target = url ? `PostgreSQL (${new URL(url).pathname.slice(1)})` : 'PGlite (base embarquée)';
  console.log(`\nSuite d'API sur ${target}\n`);
}
