/**
 * Issue 36 item 6's figure: the JavaScript one cold navigation of a route transfers, as the browser
 * received it (response bodies as sent: brotli from the gateway's precompressed twins), counted until
 * the route is ready, the page has been idle (requestIdleCallback: code preloaded when idle counts) and
 * the network quiet for 500 ms. The service worker's precache, fetched by the worker once the page is
 * idle, is counted apart (`sw…`), with how long after the page's last script it began.
 */
import type { Browser, Request } from 'playwright-core';

export interface Session {
  accessToken: string;
  refreshToken: string;
}

export interface RouteTransfer {
  route: string;
  /** Encoded (on the wire) body bytes of the route's scripts. */
  bytes: number;
  files: number;
  /** Content-Encoding of those scripts, e.g. { br: 14 }. */
  encodings: Record<string, number>;
  /** Each script: path and body bytes (printed with BENCH_SPA_FILES=1). */
  scripts: { path: string; bytes: number }[];
  /** What the service worker fetched once the page was idle (its precache), JavaScript and all. */
  swJsBytes: number;
  swBytes: number;
  swFiles: number;
  /** ms from the page's last script finishing to the worker's first request (null: no worker fetch). */
  swStartAfterMs: number | null;
}

const isJs = (req: Request) => req.resourceType() === 'script' || /\.m?js$/.test(new URL(req.url()).pathname);

export async function measureRoute(
  browser: Browser,
  url: string,
  readySelector: string,
  session?: Session,
): Promise<RouteTransfer> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 860 },
    locale: 'ru-RU',
    serviceWorkers: 'allow',
  });
  if (session) {
    await context.addInitScript(
      ([a, r]) => {
        localStorage.setItem('accessToken', a);
        localStorage.setItem('refreshToken', r);
      },
      [session.accessToken, session.refreshToken] as const,
    );
  }
  const page = await context.newPage();
  const pageJs: Promise<{ path: string; body: number; enc: string; end: number }>[] = [];
  const sw: Promise<{ body: number; js: boolean; start: number }>[] = [];
  let phase: 'page' | 'after' = 'page';
  // Requests in flight and the last change, for "the network has been quiet for 500 ms" (Playwright's
  // networkidle fires once per load, not again after the idle-time fetches).
  let inflight = 0;
  let changed = Date.now();
  context.on('request', () => {
    inflight++;
    changed = Date.now();
  });
  context.on('requestfailed', () => {
    inflight--;
    changed = Date.now();
  });
  context.on('requestfinished', (req) => {
    inflight--;
    changed = Date.now();
    const t = req.timing();
    if (req.serviceWorker()) {
      sw.push(req.sizes().then((s) => ({ body: s.responseBodySize, js: isJs(req), start: t.startTime })));
      return;
    }
    if (phase !== 'page' || !isJs(req)) return;
    pageJs.push(
      Promise.all([req.sizes(), req.response()]).then(([s, res]) => ({
        path: new URL(req.url()).pathname,
        body: s.responseBodySize,
        enc: res?.headers()['content-encoding'] ?? 'identity',
        end: t.startTime + t.responseEnd,
      })),
    );
  });
  const quiet = async () => {
    while (inflight > 0 || Date.now() - changed < 500) await new Promise((r) => setTimeout(r, 50));
  };
  await page.goto(url);
  await page.waitForSelector(readySelector);
  await quiet();
  // What the page fetches once idle (dialog code preloaded then) counts too; a signed-in page then
  // registers the worker, whose precache is counted apart.
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 5000 })));
  await quiet();
  await page.evaluate(() =>
    Promise.race([navigator.serviceWorker.ready, new Promise((resolve) => setTimeout(resolve, 5000))]),
  );
  await quiet();
  phase = 'after';
  const js = await Promise.all(pageJs);
  const fetched = await Promise.all(sw);
  await context.close();
  const encodings: Record<string, number> = {};
  for (const f of js) encodings[f.enc] = (encodings[f.enc] ?? 0) + 1;
  const lastScript = Math.max(0, ...js.map((f) => f.end));
  return {
    route: new URL(url).pathname,
    bytes: js.reduce((a, f) => a + f.body, 0),
    files: js.length,
    encodings,
    scripts: js.map((f) => ({ path: f.path, bytes: f.body })).sort((a, b) => b.bytes - a.bytes),
    swJsBytes: fetched.filter((f) => f.js).reduce((a, f) => a + f.body, 0),
    swBytes: fetched.reduce((a, f) => a + f.body, 0),
    swFiles: fetched.length,
    swStartAfterMs: fetched.length ? Math.min(...fetched.map((f) => f.start)) - lastScript : null,
  };
}

export function describeTransfer(t: RouteTransfer): string[] {
  const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;
  const enc = Object.entries(t.encodings).map(([k, v]) => `${v} ${k}`).join(', ');
  const lines = [`  ${t.route.padEnd(11)} ${kB(t.bytes)} of JavaScript in ${t.files} file(s) (${enc})`];
  if (process.env.BENCH_SPA_FILES) {
    for (const f of t.scripts) lines.push(`  ${''.padEnd(11)} ${kB(f.bytes).padStart(9)}  ${f.path}`);
  }
  if (t.swFiles > 0) {
    lines.push(
      `  ${''.padEnd(11)} then the service worker's precache: ${kB(t.swBytes)} in ${t.swFiles} file(s), ` +
        `${kB(t.swJsBytes)} of it JavaScript, starting ${t.swStartAfterMs?.toFixed(0)} ms after the page's last script`,
    );
  }
  return lines;
}
