// Builds what is not built yet, so that a fresh clone runs with one command.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function run(args) {
  const result = spawnSync('npm', args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) {
    console.error(`La commande « npm ${args.join(' ')} » a échoué.`);
    process.exit(result.status ?? 1);
  }
}

export function ensureBuilt({ web = true } = {}) {
  if (web && !existsSync(new URL('../apps/web/dist/index.html', import.meta.url))) {
    console.log("Compilation de l'application web…");
    run(['run', 'build', '-w', '@vigie/web']);
  }
  const serverEntries = ['main.js', 'user-create.js', 'operator-create.js', 'devices-import.js', 'simulate.js', 'insights-worker.js'];
  if (serverEntries.some((entry) => !existsSync(new URL(`../apps/server/dist/${entry}`, import.meta.url)))) {
    console.log('Compilation du serveur…');
    run(['run', 'build', '-w', '@vigie/server']);
  }
}
