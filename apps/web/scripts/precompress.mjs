// Writes a Brotli (.br, quality 11) and a gzip (.gz, level 9) copy beside each text asset of the
// build, once, so that the server sends them as they are instead of compressing on every request.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const distDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const COMPRESSIBLE = new Set(['.js', '.css', '.html', '.svg', '.json', '.txt', '.webmanifest', '.xml', '.map']);
/** Below this, the headers outweigh the saving. */
const MIN_BYTES = 1024;

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield path;
  }
}

let raw = 0;
let brotli = 0;
let count = 0;
for (const file of files(distDir)) {
  if (!COMPRESSIBLE.has(extname(file)) || relative(distDir, file).startsWith('.vite') || statSync(file).size < MIN_BYTES) continue;
  const content = readFileSync(file);
  const br = brotliCompressSync(content, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
  });
  writeFileSync(`${file}.br`, br);
  writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
  raw += content.length;
  brotli += br.length;
  count += 1;
}
console.log(`Précompression : ${count} fichiers, ${(raw / 1000).toFixed(0)} kB → ${(brotli / 1000).toFixed(0)} kB en Brotli`);
