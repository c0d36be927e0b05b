import { existsSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import express, { type RequestHandler, type Router } from 'express';
import expressStaticGzip from 'express-static-gzip';

/** Hashed file names change with their content, so a browser may keep them for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The offline app shell's worker script (and its precompressed twins). */
const SERVICE_WORKER = /^sw\.js(\.br|\.gz)?$/;

/**
 * Serves the built SPA. The build (frontend/vite.config.ts) leaves brotli and gzip twins beside each
 * text asset; express-static-gzip sends the best one the browser accepts, with `Vary: Accept-Encoding`.
 * Hashed assets are immutable for a year; index.html (and any other GET that is not an API path,
 * which gets index.html so the client router decides) is `no-cache`, so a deploy is seen at once.
 */
export function spaRouter(staticDir: string): Router {
  const router = express.Router();
  const dir = path.resolve(staticDir);
  const index = path.join(dir, 'index.html');
  const precompressed = (root: string, setHeaders: (res: ServerResponse, file: string) => void): RequestHandler => {
    const serve = expressStaticGzip(root, {
      enableBrotli: true,
      orderPreference: ['br', 'gzip'],
      index: false,
      serveStatic: { setHeaders, fallthrough: true },
    });
    // A path that is not valid percent-encoding (/board/%00%ud800, /board/abc%) is no file: it goes on
    // to the app's pages, whose router shows its own error, instead of express-static-gzip's bare
    // "400 URI malformed" text page.
    return (req, res, next) => (isDecodable(req.path) ? serve(req, res, next) : next());
  };

  router.use(
    '/assets',
    precompressed(path.join(dir, 'assets'), (res) => res.setHeader('cache-control', IMMUTABLE)),
    // A missing hashed asset is a 404, never index.html served as JavaScript.
    (_req, res) => {
      res.status(404).type('text/plain').send('Not found');
    },
  );
  // The service worker (issue 35 item 7) is asked again on every check, so a deploy reaches it at once.
  router.use(
    precompressed(dir, (res, file) =>
      res.setHeader('cache-control', SERVICE_WORKER.test(path.basename(file)) ? 'no-cache' : 'public, max-age=3600'),
    ),
  );
  router.get(/.*/, (_req, res) => {
    if (!existsSync(index)) {
      res.status(503).type('text/plain').send('The web app is not built yet: run `npm run build`.');
      return;
    }
    res.setHeader('cache-control', 'no-cache');
    res.sendFile(index);
  });
  return router;
}

function isDecodable(p: string): boolean {
  try {
    decodeURIComponent(p);
    return true;
  } catch {
    return false;
  }
}
