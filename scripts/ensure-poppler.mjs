// Makes sure Poppler's pdftotext and pdftoppm are present: the report tests read the PDFs with them.
import { spawnSync } from 'node:child_process';

const TOOLS = ['pdftotext', 'pdftoppm'];

/** The tool's path when it is on PATH, else null. */
function locate(tool) {
  const result = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : null;
}

function missingTools() {
  return TOOLS.filter((tool) => locate(tool) === null);
}

const missing = missingTools();
if (missing.length === 0) {
  console.log(`Poppler : ${TOOLS.map(locate).join(', ')}`);
  process.exit(0);
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (!isRoot) {
  console.error(
    [
      `${missing.join(' et ')} introuvable${missing.length > 1 ? 's' : ''}. Les tests des rapports HACCP en ont besoin pour lire les PDF.`,
      'Installez Poppler en administrateur :',
      '  sudo apt-get update && sudo apt-get install -y --no-install-recommends poppler-utils',
    ].join('\n'),
  );
  process.exit(1);
}

console.log(`${missing.join(' et ')} introuvable${missing.length > 1 ? 's' : ''} : installation du paquet Debian « poppler-utils »…`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'poppler-utils']]) {
  const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
  if (result.error || result.status !== 0) {
    console.error(`« apt-get ${args.join(' ')} » a échoué${result.error ? ` : ${result.error.message}` : ''}.`);
    process.exit(1);
  }
}
const stillMissing = missingTools();
if (stillMissing.length > 0) {
  console.error(
    `Le paquet est installé mais ${stillMissing.join(' et ')} reste${stillMissing.length > 1 ? 'nt' : ''} introuvable${stillMissing.length > 1 ? 's' : ''}.`,
  );
  process.exit(1);
}
console.log(`Poppler installé : ${TOOLS.map(locate).join(', ')}`);
