import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

const BUILD_PLACEHOLDER = "'__VIGIE_BUILD__'";
const ASSETS_PLACEHOLDER = '[/* __VIGIE_ASSETS__ */]';

/**
 * Writes into the service worker (public/sw.js, otherwise copied as it is) the build's id and its
 * hashed files, which it keeps for offline use: each build gives a new worker, which drops the
 * previous build's files.
 */
function serviceWorkerBuild(): Plugin {
  return {
    name: 'vigie:service-worker',
    apply: 'build',
    writeBundle(options, bundle) {
      const file = path.join(options.dir ?? 'dist', 'sw.js');
      const assets = Object.keys(bundle)
        .filter((name) => name.startsWith('assets/') && /\.(js|css)$/.test(name))
        .sort()
        .map((name) => `/${name}`);
      const page = bundle['index.html'];
      const build = createHash('sha256')
        .update(assets.join('\n'))
        .update(page?.type === 'asset' ? page.source : '')
        .digest('hex')
        .slice(0, 12);
      const source = readFileSync(file, 'utf8');
      if (!source.includes(BUILD_PLACEHOLDER) || !source.includes(ASSETS_PLACEHOLDER)) throw new Error(`${file}: placeholders missing.`);
      writeFileSync(file, source.replace(BUILD_PLACEHOLDER, JSON.stringify(build)).replace(ASSETS_PLACEHOLDER, JSON.stringify(assets)));
    },
  };
}

const apiTarget = `http://localhost:${process.env['PORT'] ?? '3000'}`;

export default defineConfig({
  plugins: [react(), tailwindcss(), serviceWorkerBuild()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // Read by scripts/check-bundle-size.mjs to measure each route's initial JavaScript.
    manifest: true,
    rollupOptions: {
      output: {
        // The landing page is imported by the entry (no « Chargement… » before it) but kept in a
        // chunk of its own, loaded in parallel with the entry, that no other page needs to read.
        manualChunks(id) {
          if (id.includes('/src/app/routes/landing.tsx') || id.includes('/src/features/landing/')) return 'landing';
          return undefined;
        },
      },
    },
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    // The files of one worker share one jsdom and their modules: setting up a jsdom and importing
    // React and the app again for each file was three quarters of the suite's time. The set-up
    // file cleans the document and local storage after every test.
    isolate: false,
    setupFiles: ['./vitest.setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
  },
});
