// Makes sure a Chromium for the browser tests is present: Debian's package, or CHROMIUM_PATH.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

const DEFAULT_PATH = '/usr/bin/chromium';
const configured = process.env.CHROMIUM_PATH;
const candidates = configured ? [configured] : [DEFAULT_PATH];

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

const found = candidates.find(isExecutable);
if (found) {
  console.log(`Chromium : ${found}`);
  process.exit(0);
}

if (configured) {
  console.error(
    `CHROMIUM_PATH désigne « ${configured} », qui n'est pas un exécutable. Corrigez la variable ou retirez-la pour utiliser ${DEFAULT_PATH}.`,
  );
  process.exit(1);
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (!isRoot) {
  console.error(
    [
      `Chromium est introuvable (${DEFAULT_PATH}). Les tests navigateur en ont besoin.`,
      'Installez-le en administrateur :',
      '  sudo apt-get update && sudo apt-get install -y chromium',
      'ou indiquez un Chromium existant avec la variable CHROMIUM_PATH.',
    ].join('\n'),
  );
  process.exit(1);
}

console.log('Chromium est introuvable : installation du paquet Debian « chromium »…');
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'chromium']]) {
  const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
  if (result.error || result.status !== 0) {
    console.error(`« apt-get ${args.join(' ')} » a échoué${result.error ? ` : ${result.error.message}` : ''}.`);
    process.exit(1);
  }
}
if (!isExecutable(DEFAULT_PATH)) {
  console.error(`Le paquet est installé mais ${DEFAULT_PATH} reste introuvable.`);
  process.exit(1);
}
console.log(`Chromium installé : ${DEFAULT_PATH}`);
