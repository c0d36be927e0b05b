import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { type Router } from 'express';

/**
 * Serves the built SPA. Hashed assets are cached for a year; every other GET that is not an API
 * path gets index.html, and the client router decides (unknown routes redirect to /).
 */
export function spaRouter(staticDir: string): Router {
  const router = express.Router();
  const dir = path.resolve(staticDir);
  const index = path.join(dir, 'index.html');
  router.use('/assets', express.static(path.join(dir, 'assets'), { immutable: true, maxAge: '365d', fallthrough: false }));
  router.use(express.static(dir, { index: false, maxAge: '1h' }));
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
