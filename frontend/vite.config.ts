import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';

const BACKEND = process.env.WB_BACKEND_URL ?? 'http://localhost:8080';

export default defineConfig({
  // Brotli and gzip twins of every text asset, made once at build time; the gateway picks one by
  // Accept-Encoding (services/gateway/src/spa.ts) instead of compressing on every request.
  plugins: [react(), compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024, exclude: [/\.map$/] })],
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
    // Hashed chunks of the previous build stay: a page opened before a rebuild (or a deploy) still
    // finds the lazy chunks it asks for. Clean `dist` by hand when it grows.
    emptyOutDir: false,
    sourcemap: true,
  },
});
