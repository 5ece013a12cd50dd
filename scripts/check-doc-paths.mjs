#!/usr/bin/env node
// Every relative link of the docs and the README, and every file path they or the code's comments
// name, must exist: a renamed file or a document never written is found here, not by a reader.
// Run by `npm run lint`. Paths with a placeholder (`<x>`, `*`, `…`) are patterns, not checked.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

const root = join(dirname(new URL(import.meta.url).pathname), '..');
const tracked = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter((file) => file && existsSync(join(root, file)));
const TOP = '(?:apps|packages|scripts|docs|e2e|bench|\\.ci)';
// A path from the repository's root, as the docs and comments write them (apps, packages, docs…).
const rootPath = new RegExp(`(?<![\\w./-])${TOP}/[\\w./-]*\\w`, 'g');
const markdownLink = /\]\(([^)\s]+)\)/g;
const isPattern = (path) => /[<>*…{}]/.test(path);

const problems = [];
// What a build or a test run makes, ignored by git: named by the docs, not there in a fresh clone.
const GENERATED = /(^|\/)(dist|screenshots|test-results|data)(\/|$)/;
const exists = (path) => existsSync(join(root, path));
// A path is read from the root, or from the workspace of the file naming it (apps/web/…), and a
// decision may be named by its number alone (docs/decisions/0015).
function found(path, file) {
  if (GENERATED.test(path)) return true;
  const workspace = /^(apps|packages)\/[^/]+\//.exec(file)?.[0];
  const candidates = [path, path.replace(/\.js$/, '.ts'), ...(workspace ? [join(workspace, path)] : [])];
  if (candidates.some(exists)) return true;
  const decision = /^docs\/decisions\/(\d{4})$/.exec(path);
  return decision !== null && tracked.some((other) => other.startsWith(`docs/decisions/${decision[1]}-`));
}

for (const file of tracked) {
  const isMarkdown = file.endsWith('.md');
  const isCode = /\.(ts|tsx|mjs|js|css)$/.test(file) && !file.endsWith('routes.ts');
  if (!isMarkdown && !isCode && file !== '.ci/run') continue;
  if (file.startsWith('apps/server/drizzle/')) continue;
  const text = readFileSync(join(root, file), 'utf8');
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    const where = `${file}:${index + 1}`;
    if (isMarkdown) {
      for (const [, target] of line.matchAll(markdownLink)) {
        if (/^(https?:|mailto:|#|\/)/.test(target) || isPattern(target)) continue;
        const path = normalize(join(dirname(file), target.split('#')[0]));
        if (!exists(path)) problems.push(`${where}: lien vers ${target}, qui n’existe pas`);
      }
    }
    // In code, only the comments: a string may name a path built elsewhere.
    const scanned = isCode ? commentOf(line) : line;
    if (!scanned) return;
    for (const [path] of scanned.matchAll(rootPath)) {
      if (isPattern(path)) continue;
      const clean = path.replace(/[.:]+$/, '');
      if (!found(clean, file)) problems.push(`${where}: ${clean} n’existe pas`);
    }
  });
}

/** The comment part of a line of code: after `//`, or a line of a block comment. */
function commentOf(line) {
  const trimmed = line.trimStart();
  if (trimmed.startsWith('*') || trimmed.startsWith('/*')) return trimmed;
  const at = line.indexOf('// ');
  return at >= 0 && !line.slice(0, at).includes("'") && !line.slice(0, at).includes('`') ? line.slice(at) : '';
}

if (problems.length > 0) {
  console.error(`Chemins nommés dans la documentation ou les commentaires qui n’existent pas (${problems.length}) :`);
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
}
console.log(`Liens et chemins de la documentation et des commentaires : tous présents (${tracked.length} fichiers lus).`);
