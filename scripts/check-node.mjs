// Refuses, with a French message, a Node.js that Vigie does not support (the range of `engines` in package.json).
import { readFileSync } from 'node:fs';

const SUPPORTED = [
  [20, 19],
  [22, 12],
  [24, 0],
];

/** True when `version` (e.g. `v22.12.0`) is 20.19+ on 20, 22.12+ on 22, or any version from 24 on. */
export function isSupportedNode(version) {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number);
  if (major >= 24) return true;
  return SUPPORTED.some(([m, min]) => major === m && minor >= min);
}

if (!isSupportedNode(process.version)) {
  const range = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).engines.node;
  console.error(
    `Vigie ne démarre pas avec Node.js ${process.version} : versions prises en charge ${range} (Node.js 22 ou 24 recommandé). ` +
      'Installez une version LTS depuis https://nodejs.org puis relancez la commande.',
  );
  process.exit(1);
}
