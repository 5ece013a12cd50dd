import { defineConfig } from 'vitest/config';

// The evaluation's own code (the scenario generator); the benchmarks themselves run by their npm scripts.
export default defineConfig({
  // Drawing scenarios simulates days of a cabinet in 10 s steps: seconds of computation, more when
  // the machine runs the type checker and the linter beside it (as CI does).
  test: { name: 'bench', environment: 'node', include: ['predict/**/*.test.ts'], testTimeout: 60_000 },
});
