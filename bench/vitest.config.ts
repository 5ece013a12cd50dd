import { defineConfig } from 'vitest/config';

// The evaluation's own code (the scenario generator); the benchmarks themselves run by their npm scripts.
export default defineConfig({
  test: { name: 'bench', environment: 'node', include: ['predict/**/*.test.ts'] },
});
