import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

/**
 * The workbench (DECISIONS.md §11): built into dist/ui, which the service serves at /ui/.
 * SCRIPTORIUM_UI_OUT_DIR builds elsewhere (the browser tests build a private copy).
 */
export default defineConfig({
  root: here('.'),
  base: '/ui/',
  plugins: [
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      routesDirectory: here('./src/routes'),
      generatedRouteTree: here('./src/route-tree.gen.ts'),
      quoteStyle: 'single',
    }),
    react(),
  ],
  build: {
    outDir: process.env.SCRIPTORIUM_UI_OUT_DIR ?? here('../dist/ui'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 1024,
  },
  server: {
    // `npm run dev:ui`: the API is the service on its default port.
    proxy: Object.fromEntries(
      [
        '/auth',
        '/user',
        '/internal',
        '/operators',
        '/schema',
        '/repository-view',
        '/curation-job',
        '/schedule',
        '/events',
        '/audit',
        '/notification-target',
      ].map((prefix) => [prefix, 'http://127.0.0.1:8080']),
    ),
  },
});
