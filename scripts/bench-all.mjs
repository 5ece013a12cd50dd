#!/usr/bin/env node
/**
 * npm run bench — every bench of the budgets, one after the other, each to its end even when an
 * earlier one missed a budget, so that every figure is printed; then a summary, and a non-zero
 * exit when any of them failed.
 */
import { spawnSync } from 'node:child_process';

const benches = ['bench:ingest', 'bench:api', 'bench:jobs', 'bench:web', 'bench:fleet', 'bench:chain', 'bench:tasks', 'bench:tasks-phone'];
const failed = [];
for (const bench of benches) {
  const { status } = spawnSync('npm', ['run', bench], { stdio: 'inherit' });
  if (status !== 0) failed.push(`${bench} (code ${status ?? 'signal'})`);
}
console.log('');
if (failed.length === 0) {
  console.log(`npm run bench : les ${benches.length} mesures tiennent leurs budgets.`);
} else {
  console.error(`npm run bench : budget manqué ou mesure en échec dans ${failed.join(', ')}.`);
  process.exit(1);
}
