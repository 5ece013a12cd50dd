// Bundles the server and its CLI into dist/ with esbuild; npm dependencies stay external,
// the workspace's own TypeScript packages (@vigie/contract) are bundled in.
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies ?? {}).filter((name) => !name.startsWith('@vigie/'));

await build({
  entryPoints: {
    main: 'src/main.ts',
    'user-create': 'src/cli/user-create.ts',
    'operator-create': 'src/cli/operator-create.ts',
    'devices-import': 'src/cli/devices-import.ts',
    simulate: 'src/simulator/simulate.ts',
    // Insights are computed in a worker thread, which loads this file beside main.js.
    'insights-worker': 'src/modules/insights/insights-worker.ts',
    // Reports are rendered in a worker thread too, within a time budget.
    'report-worker': 'src/modules/reports/report-worker.ts',
    // Pasted LoRaWAN codecs run in a worker thread, in a QuickJS sandbox.
    'codec-worker': 'src/modules/lorawan/codec-worker.ts',
  },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external: [...external, ...external.map((name) => `${name}/*`)],
  logLevel: 'warning',
  banner: { js: '// Vigie server bundle: built by apps/server/build.mjs' },
});
console.log('Serveur compilé dans apps/server/dist');
