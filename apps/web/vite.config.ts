import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const apiTarget = `http://localhost:${process.env['PORT'] ?? '3000'}`;

export default defineConfig({
  plugins: [react(), tailwindcss()],
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
    setupFiles: ['./vitest.setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
  },
});
