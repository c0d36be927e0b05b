import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { pruneOldBuilds } from './vite/prune-old-builds.ts';
import { fastShortStrings } from './vite/fast-short-strings.ts';
import { offlineShell } from './vite/offline-shell.ts';
import { pureUiModules } from './vite/pure-ui.ts';
import { reactRouterProduction } from './vite/react-router-production.ts';

const BACKEND = process.env.WB_BACKEND_URL ?? 'http://localhost:8080';

export default defineConfig(({ command }) => ({
  // Brotli and gzip twins of every text asset, made once at build time; the gateway picks one by
  // Accept-Encoding (services/gateway/src/spa.ts) instead of compressing on every request.
  plugins: [
    react(),
    compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024, exclude: [/\.map$/] }),
    pruneOldBuilds(),
    fastShortStrings(),
    ...offlineShell(),
    pureUiModules(),
  ],
  resolve: { alias: command === 'build' ? reactRouterProduction(path.dirname(fileURLToPath(import.meta.url))) : [] },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: BACKEND, changeOrigin: true },
      '/yjs': { target: BACKEND, changeOrigin: true, ws: true },
    },
  },
  preview: {
    proxy: {
      '/api': { target: BACKEND, changeOrigin: true },
      '/yjs': { target: BACKEND, changeOrigin: true, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    // Not emptied: a page opened before a rebuild (a browser test while another one builds, a tab
    // during a deploy) still finds the lazy chunks it asks for. pruneOldBuilds keeps this build and
    // the one before it and deletes the rest, so dist does not grow with every build.
    emptyOutDir: false,
    sourcemap: true,
  },
}));
