import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { databaseUrl, memoryTemplate, tempDir } from '../test/test-app.ts';
import { openPglite, writeMemoryTemplate } from './pglite.ts';

const count = async (database: Awaited<ReturnType<typeof openPglite>>, query: ReturnType<typeof sql>) =>
  Number(((await database.db.execute(query)) as unknown as { rows: { n: number | string }[] }).rows[0]?.n);

describe('a new embedded database from a migrated template (PGLITE_TEMPLATE)', () => {
  it.skipIf(databaseUrl)(
    'starts a new DATA_DIR from the template, leaves an existing one as it is, and sets aside a template it cannot read',
    async () => {
      // The suite's own template when its set-up wrote it; otherwise one written here.
      let template = memoryTemplate();
      if (!template) {
        template = path.join(tempDir(), 'modele.tar');
        await writeMemoryTemplate(template);
      }
      const dataDir = tempDir();

      const first = await openPglite(dataDir, { memoryTemplate: template });
      try {
        expect(fs.existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'))).toBe(true);
        expect(await count(first, sql`select count(*) as n from information_schema.tables where table_name = 'tasks'`)).toBe(1);
        await first.db.execute(sql`insert into organizations (name) values ('Fromagerie du marché')`);
      } finally {
        await first.close();
      }

      // Opened again with the template: what it holds is kept, not replaced by the template.
      const again = await openPglite(dataDir, { memoryTemplate: template });
      try {
        expect(await count(again, sql`select count(*) as n from organizations where name = 'Fromagerie du marché'`)).toBe(1);
      } finally {
        await again.close();
      }

      // A damaged template: the database is created and migrated as without one.
      const damaged = path.join(tempDir(), 'abime.tar');
      fs.writeFileSync(damaged, 'pas une archive');
      const other = await openPglite(tempDir(), { memoryTemplate: damaged });
      try {
        expect(await count(other, sql`select count(*) as n from information_schema.tables where table_name = 'tasks'`)).toBe(1);
      } finally {
        await other.close();
      }
    },
    120_000,
  );
});
