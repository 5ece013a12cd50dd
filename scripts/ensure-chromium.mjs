// Makes sure the browsers of the browser tests are present: Debian's Chromium and its headless shell
// (the shell runs most specs for about half the processor time; the full browser runs those that
// need notifications and push), or CHROMIUM_PATH, which then runs every spec.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

const DEFAULT_PATH = '/usr/bin/chromium';
const SHELL_PATH = '/usr/bin/chromium-headless-shell';
const PACKAGES = { [DEFAULT_PATH]: 'chromium', [SHELL_PATH]: 'chromium-headless-shell' };
const configured = process.env.CHROMIUM_PATH;

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

if (configured) {
  if (isExecutable(configured)) {
    console.log(`Chromium : ${configured}`);
    process.exit(0);
  }
  console.error(
    `CHROMIUM_PATH désigne « ${configured} », qui n'est pas un exécutable. Corrigez la variable ou retirez-la pour utiliser ${DEFAULT_PATH}.`,
  );
  process.exit(1);
}

const missing = [DEFAULT_PATH, SHELL_PATH].filter((path) => !isExecutable(path));
if (missing.length === 0) {
  console.log(`Chromium : ${DEFAULT_PATH}, ${SHELL_PATH}`);
  process.exit(0);
}

const packages = missing.map((path) => PACKAGES[path]);
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (!isRoot) {
  console.error(
    [
      `Introuvable : ${missing.join(', ')}. Les tests navigateur en ont besoin.`,
      'Installez-les en administrateur :',
      `  sudo apt-get update && sudo apt-get install -y ${packages.join(' ')}`,
      'ou indiquez un Chromium existant avec la variable CHROMIUM_PATH.',
    ].join('\n'),
  );
  process.exit(1);
}

console.log(`Introuvable : ${missing.join(', ')}. Installation des paquets Debian ${packages.map((name) => `« ${name} »`).join(' et ')}…`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
for (const args of [['update'], ['install', '-y', '--no-install-recommends', ...packages]]) {
  const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
  if (result.error || result.status !== 0) {
    console.error(`« apt-get ${args.join(' ')} » a échoué${result.error ? ` : ${result.error.message}` : ''}.`);
    process.exit(1);
  }
}
const still = missing.filter((path) => !isExecutable(path));
if (still.length > 0) {
  console.error(`Les paquets sont installés mais ${still.join(', ')} reste introuvable.`);
  process.exit(1);
}
console.log(`Chromium installé : ${DEFAULT_PATH}, ${SHELL_PATH}`);
