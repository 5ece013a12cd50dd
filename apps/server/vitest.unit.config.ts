import { defineConfig } from 'vitest/config';

/**
 * The server's tests that need no database (`*.unit.test.ts`: computations, formats, codecs): run
 * once, whichever database the API suite (`vitest.config.ts`) runs on. A lint rule keeps such a
 * file from opening a database or a server.
 */
export default defineConfig({
  test: {
    name: 'server-unit',
    environment: 'node',
    include: ['src/**/*.unit.test.ts'],
    testTimeout: 30_000,
    pool: 'forks',
    isolate: false,
  },
});
