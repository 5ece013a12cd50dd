// Measures the JavaScript each route needs before it can render (gzipped) from the Vite
// manifest, prints it, and fails when a budget is exceeded.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const distDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const manifestPath = join(distDir, '.vite', 'manifest.json');

const routes = [
  // The entry imports the landing page itself (its own chunk, loaded with the entry).
  { name: 'landing (/)', module: null, budgetKb: 120 },
  { name: 'dashboard (/dashboard)', module: 'src/app/routes/dashboard.tsx', budgetKb: 200 },
];

const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
if (!entryKey) throw new Error('No entry chunk in the Vite manifest.');

/** The chunk files loaded with `key`: itself and its static imports, transitively. */
function staticClosure(key, files = new Set()) {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`Chunk ${key} is missing from the Vite manifest.`);
  if (files.has(chunk.file)) return files;
  files.add(chunk.file);
  for (const imported of chunk.imports ?? []) staticClosure(imported, files);
  return files;
}

const gzipCache = new Map();
function gzippedSize(file) {
  if (!gzipCache.has(file)) gzipCache.set(file, gzipSync(readFileSync(join(distDir, file)), { level: 9 }).length);
  return gzipCache.get(file);
}

let failed = false;
for (const route of routes) {
  const files = staticClosure(entryKey);
  if (route.module) staticClosure(route.module, files);
  const js = [...files].filter((file) => file.endsWith('.js'));
  const kb = js.reduce((sum, file) => sum + gzippedSize(file), 0) / 1000;
  const ok = kb <= route.budgetKb;
  failed ||= !ok;
  console.log(
    `${ok ? 'ok  ' : 'FAIL'} ${route.name}: ${kb.toFixed(1)} kB of initial JavaScript gzipped (budget ${route.budgetKb} kB, ${js.length} files)`,
  );
}

// No schema in the browser: the web imports only types from `@vigie/contract` and its values from
// `@vigie/contract/values`, which hold no zod. A zod schema would weigh some 90 kB on every signed-in
// page, and its parsers would try `Function` under the strict CSP.
const withZod = readdirSync(join(distDir, 'assets')).filter(
  (file) => file.endsWith('.js') && readFileSync(join(distDir, 'assets', file), 'utf8').includes('_zod'),
);
if (withZod.length > 0) {
  failed = true;
  console.error(
    `FAIL zod is in the bundle (${withZod.join(', ')}): import values from @vigie/contract/values, types only from @vigie/contract.`,
  );
} else {
  console.log('ok   no zod in the bundle');
}

// The manifest only serves this check; it is not part of the published application.
rmSync(join(distDir, '.vite'), { recursive: true, force: true });

if (failed) {
  console.error('A bundle budget is exceeded.');
  process.exit(1);
}
