import fs from 'node:fs';
import path from 'node:path';
import { getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import * as schema from './schema.ts';
import { foreignTableUses, moduleOf, RAW_TABLE_OWNERS, TABLE_OWNERS, type TableExport } from './table-owners.ts';

const src = path.join(import.meta.dirname, '..');
const modulesDir = path.join(src, 'modules');

/** Each table export of the schema with its SQL name. */
const sqlNames = Object.fromEntries(
  Object.entries(schema).flatMap(([name, value]) => (is(value, PgTable) ? [[name, getTableName(value)]] : [])),
) as Record<TableExport, string>;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === '__fixtures__' ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('table ownership', () => {
  it('gives every table of the schema exactly one owner, a module of the server (or src/db for the bus)', () => {
    expect(Object.keys(TABLE_OWNERS).sort()).toEqual(Object.keys(sqlNames).sort());
    const modules = new Set(fs.readdirSync(modulesDir));
    for (const owner of [...Object.values(TABLE_OWNERS), ...Object.values(RAW_TABLE_OWNERS)]) {
      if (owner !== 'db') expect(modules.has(owner), owner).toBe(true);
    }
  });

  it('finds no module file that imports or names in SQL a table another module owns', () => {
    const files = sourceFiles(modulesDir);
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((file) =>
      foreignTableUses(path.relative(src, file), fs.readFileSync(file, 'utf8'), sqlNames).map(
        (use) => `${path.relative(src, file)}: ${use.table} (${use.how}, owned by ${use.owner})`,
      ),
    );
    expect(found).toEqual([]);
  });

  it('fails on a DAL that imports another module’s table, or names it in raw SQL', () => {
    const dal = [
      "import { and, eq, sql } from 'drizzle-orm';",
      "import { sites, users as accounts, type OutboxPayload } from '../../db/schema.ts';",
      'export const names = (db) => db.select({ email: accounts.email }).from(accounts);',
      'export const count = (db) => db.execute(sql`select count(*) from sessions join ${sites} s on true where role = ${"admin"}`);',
    ].join('\n');
    expect(foreignTableUses('modules/sites/site-dal.ts', dal, sqlNames)).toEqual([
      { table: 'users', owner: 'auth', how: 'import' },
      { table: 'sessions', owner: 'auth', how: 'sql' },
    ]);
    expect(foreignTableUses('modules/auth/session-dal.ts', dal, sqlNames)).toEqual([{ table: 'sites', owner: 'sites', how: 'import' }]);
    expect(
      foreignTableUses('modules/alerts/x-dal.ts', 'const n = sql`delete from reading_ids where device_id = ${id}`;', sqlNames),
    ).toEqual([{ table: 'reading_ids', owner: 'telemetry', how: 'sql' }]);
    expect(foreignTableUses('modules/alerts/x-dal.ts', "import { schema } from '../../db/schema.ts';", sqlNames)).toEqual([
      { table: 'schema', owner: 'db', how: 'import' },
    ]);
  });

  it('knows a file’s module by its path, and leaves files outside the modules alone', () => {
    expect(moduleOf('apps/server/src/modules/alerts/alert-dal.ts')).toBe('alerts');
    expect(moduleOf('modules/auth/user-dal.ts')).toBe('auth');
    expect(moduleOf('db/postgres.ts')).toBeNull();
    expect(foreignTableUses('test/test-dal.ts', "import { users } from '../db/schema.ts';", sqlNames)).toEqual([]);
  });
});
