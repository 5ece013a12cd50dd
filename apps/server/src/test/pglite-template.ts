import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { migrationsFolder } from '../db/database.ts';

const PREFIX = 'vigie-pglite-template-';

/** The PGlite package's version: a template made by another version may not load. */
function pgliteVersion(): string {
  let dir = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  while (dir !== path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) {
      const parsed = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
      if (parsed.name === '@electric-sql/pglite') return parsed.version ?? '';
    }
    dir = path.dirname(dir);
  }
  return '';
}

/**
 * Where the suite's migrated embedded database is saved: named by the migrations' content and the
 * PGlite version, so that a new migration or version makes a new one.
 */
export function pgliteTemplatePath(): string {
  const hash = createHash('sha256').update(pgliteVersion());
  const folder = migrationsFolder();
  for (const name of fs.readdirSync(folder, { recursive: true, encoding: 'utf8' }).sort()) {
    const file = path.join(folder, name);
    if (fs.statSync(file).isFile()) hash.update(name).update(fs.readFileSync(file));
  }
  return path.join(os.tmpdir(), `${PREFIX}${hash.digest('hex').slice(0, 16)}.tar`);
}

/** Writes the template when it is missing, and removes the ones older migrations made. */
export async function preparePgliteTemplate(): Promise<void> {
  const file = pgliteTemplatePath();
  for (const name of fs.readdirSync(os.tmpdir())) {
    const other = path.join(os.tmpdir(), name);
    if (name.startsWith(PREFIX) && name.endsWith('.tar') && other !== file) fs.rmSync(other, { force: true });
  }
  if (fs.existsSync(file)) return;
  const { writeMemoryTemplate } = await import('../db/pglite.ts');
  await writeMemoryTemplate(file);
}

/** The template, when the suite's set-up has written it (not when a test file runs alone without it). */
export function memoryTemplate(): string | undefined {
  found ??= pgliteTemplatePath();
  return fs.existsSync(found) ? found : undefined;
}

let found: string | undefined;
