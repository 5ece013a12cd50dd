// Creates or drops a PostgreSQL database, for test runs that want a fresh one.
// Usage: node scripts/pg-database.mjs create|drop NAME   (server: PG_ADMIN_URL, default local postgres)
import pg from 'pg';

const [action, name] = process.argv.slice(2);
if (!['create', 'drop'].includes(action ?? '') || !/^[a-z_][a-z0-9_]{0,62}$/.test(name ?? '')) {
  console.error('Usage : node scripts/pg-database.mjs create|drop NOM (lettres minuscules, chiffres, _)');
  process.exit(2);
}
const adminUrl = process.env.PG_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const client = new pg.Client({ connectionString: adminUrl });
try {
  await client.connect();
} catch (error) {
  console.error(`PostgreSQL injoignable à ${adminUrl} : ${error.message}`);
  process.exit(1);
}
try {
  if (action === 'create') {
    await client.query(`create database "${name}"`);
    console.log(`Base PostgreSQL « ${name} » créée.`);
  } else {
    await client.query(`drop database if exists "${name}" with (force)`);
    console.log(`Base PostgreSQL « ${name} » supprimée.`);
  }
} finally {
  await client.end();
}
