import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { pruneOldBuilds } from './vite/prune-old-builds.ts';

const ACCESS_CHUNK = /src\/features\/dashboard\/(AccessModal|errors|texts|ui)\.(tsx?|module\.css)|node_modules\/react-colorful\//;
const DASHBOARD_CHUNK = /src\/pages\/DashboardPage|src\/features\/dashboard\/(?!prefetch|api|logic|modals|TagsModal|forms)|node_modules\/@dnd-kit\//;
const COMMON_CHUNK =
  /^(?!\0|.*(preload-helper|node_modules\/(zod|@hookform|react-hook-form)\/|features\/[a-z-]+\/forms\.ts|libs\/contracts\/src\/(index|auth|boards|billing|events|board-answers)\.ts|src\/boot\.ts|src\/app\/pages\.ts))/;

const BACKEND = process.env.WB_BACKEND_URL ?? 'http://localhost:8080';

export default defineConfig({
  // Brotli and gzip twins of every text asset, made once at build time; the gateway picks one by
  // Accept-Encoding (services/gateway/src/spa.ts) instead of compressing on every request.
  plugins: [
    react(),
    compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024, exclude: [/\.map$/] }),
    pruneOldBuilds(),
  ],
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
    rolldownOptions: {
      output: {
        // Needed when groups leave dependencies where they are (rolldown's advice for the option below).
        strictExecutionOrder: true,
        // The gateway speaks HTTP/1.1: six connections, so a route that needs a dozen small chunks
        // queues them (and its API calls) behind each other. Groups keep a page at a few files.
        codeSplitting: {
          // Without it a group also swallows what its modules import (React itself, from the entry).
          includeDependenciesRecursively: false,
          groups: [
            // The access dialog and what it needs: shared by the dashboard and the board page.
            { name: 'access', test: ACCESS_CHUNK, priority: 3 },
            { name: 'dashboard', test: DASHBOARD_CHUNK, priority: 2 },
            // What two or more routes share (Radix, icons, the UI layer, constants) in one file
            // instead of a handful of small ones; zod stays apart, only pages with forms load it.
            { name: 'common', test: COMMON_CHUNK, minShareCount: 2, priority: 1 },
          ],
        },
      },
    },
  },
});
