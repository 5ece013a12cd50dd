import { defineConfig } from 'vitest/config';
import ProcessesFirst from './apps/server/src/test/sequencer.ts';

export default defineConfig({
  test: {
    // Files that start real server processes first (the order is the whole run's, not a project's).
    sequence: { sequencer: ProcessesFirst },
    projects: ['packages/contract', 'apps/server', 'apps/server/vitest.unit.config.ts', 'apps/web', 'bench'],
  },
});
