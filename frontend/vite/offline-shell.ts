import type { Plugin, PluginOption } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

/**
 * The service worker of the offline app shell (issue 35 item 7; docs/decisions.md "Offline app shell"):
 * Workbox precaches this build's code, styles and index.html, every navigation outside the server's
 * own paths gets index.html (the client router decides), fonts and other assets are kept as they are
 * fetched. API calls (/api), the realtime socket and its HTTP calls (/yjs) are never cached: the
 * board's data offline comes from IndexedDB (y-indexeddb). A new build's worker takes over at once
 * (skipWaiting + clientsClaim); the page registers it and applies the update (src/app/offlineShell.ts).
 */
export function offlineShell(): PluginOption[] {
  // dist is not emptied between builds (vite.config.ts): only the files this build wrote are precached.
  const current = new Set<string>();
  const collect: Plugin = {
    name: 'wb:current-build-files',
    apply: 'build',
    buildStart: () => current.clear(),
    generateBundle(_options, bundle) {
      for (const name of Object.keys(bundle)) current.add(name);
    },
  };
  return [
    collect,
    VitePWA({
      strategies: 'generateSW',
      registerType: 'autoUpdate',
      injectRegister: false,
      manifest: false,
      filename: 'sw.js',
      workbox: {
        globPatterns: ['index.html', 'favicon.svg', 'assets/*.{js,css}'],
        manifestTransforms: [
          (entries) => ({
            manifest: entries.filter((e) => !e.url.startsWith('assets/') || current.has(e.url)),
            warnings: [],
          }),
        ],
        // Hashed names change with their content: no revision query needed.
        dontCacheBustURLsMatching: /^assets\//,
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
        navigateFallback: 'index.html',
        navigateFallbackDenylist: [/^\/api(\/|$)/, /^\/yjs(\/|$)/, /^\/internal(\/|$)/, /^\/(health|ready|metrics)$/],
        runtimeCaching: [
          {
            // Fonts and the rare asset outside the precache (an older build's chunk): kept once fetched.
            urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/assets/'),
            handler: 'CacheFirst',
            options: { cacheName: 'wb-assets', expiration: { maxEntries: 120, purgeOnQuotaError: true } },
          },
        ],
        cleanupOutdatedCaches: true,
        skipWaiting: true,
        clientsClaim: true,
        inlineWorkboxRuntime: true,
        sourcemap: false,
      },
    }),
  ];
}
