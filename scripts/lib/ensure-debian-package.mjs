// Makes sure a Debian package's programs are present, installing the package when run as root.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** The program's path when it is on PATH (or an absolute path that exists), else null. */
function locate(tool) {
  if (tool.startsWith('/')) return existsSync(tool) ? tool : null;
  const result = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : null;
}

/**
 * Exits with a clear message when the tools stay missing.
 * @param {{ label: string, tools: string[], packages: string[], why: string }} wanted
 */
export function ensureDebianPackage({ label, tools, packages, why }) {
  const missingTools = () => tools.filter((tool) => locate(tool) === null);
  const missing = missingTools();
  if (missing.length === 0) {
    console.log(`${label} : ${tools.map(locate).join(', ')}`);
    return;
  }
  const plural = missing.length > 1;
  const absent = `${missing.join(' et ')} introuvable${plural ? 's' : ''}`;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error(
      [
        `${absent}. ${why}`,
        `Installez ${label} en administrateur :`,
        `  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${packages.join(' ')}`,
      ].join('\n'),
    );
    process.exit(1);
  }
  console.log(`${absent} : installation du paquet Debian « ${packages.join(' ')} »…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', ...packages]]) {
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
  console.log(`${label} installé : ${tools.map(locate).join(', ')}`);
}
