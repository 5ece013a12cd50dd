import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // Those that need no database run once, in `vitest.unit.config.ts`.
    exclude: ['src/**/*.unit.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The files of a worker share its modules: each file no longer imports the server afresh, nor
    // compiles the embedded database's WebAssembly again (half of the suite's time). Every file
    // closes what it opens; none depends on a module's state left by another.
    isolate: false,
    globalSetup: ['src/test/global-setup.ts'],
  },
});
