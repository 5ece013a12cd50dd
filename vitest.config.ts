import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/contract', 'apps/server', 'apps/server/vitest.unit.config.ts', 'apps/web', 'bench'],
  },
});
