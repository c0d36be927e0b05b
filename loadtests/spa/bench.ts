// Issue 7's SPA figures: JavaScript the browser downloads for /login and /dashboard (bytes on the
// wire, i.e. compressed when the gateway compresses) and the time from navigation to the first board
// card on /dashboard for a user with 60 boards, in headless Chromium.
//
//   npm run bench -- spa                     the current build (frontend/dist)
//   npm run bench -- spa --dist /tmp/old     another build, e.g. one made from an older commit
//   npm run bench -- spa --waterfall         also print one cold navigation's requests (start → end, ms)
//   npm run bench -- spa --transfer-only     only the JavaScript each route transfers (issue 36 item 6)
//   BENCH_RUNS=15                            navigations per figure (default 10)
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { api, commandLine, machineInfo, repoRoot, startStack } from '../lib/harness.ts';
import { describeTransfer, measureRoute } from './transfer.ts';

const { values } = parseArgs({
  options: { dist: { type: 'string' }, waterfall: { type: 'boolean' }, 'transfer-only': { type: 'boolean' } },
  allowPositionals: true,
});
const dist = path.resolve(values.dist ?? path.join(repoRoot, 'frontend', 'dist'));
const runs = Number(process.env.BENCH_RUNS ?? 10);
const BOARDS = 60;
const CARD = '[data-testid="board-card"]';

/** Records when the first board card enters the DOM, in ms since navigation start. */
const FIRST_CARD_PROBE = `(() => {
  const seen = () => {
    if (window.__firstCard === undefined && document.querySelector('${CARD}')) {
      window.__firstCard = performance.now();
      return true;
    }
    return false;
  };
  new MutationObserver((_, obs) => { if (seen()) obs.disconnect(); })
    .observe(document, { childList: true, subtree: true });
})();`;

interface Session {
  accessToken: string;
  refreshToken: string;
}

async function newContext(browser: Browser, session?: Session): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale: 'ru-RU' });
  if (session) {
    await context.addInitScript(
      ([a, r]) => {
        localStorage.setItem('accessToken', a);
        localStorage.setItem('refreshToken', r);
      },
      [session.accessToken, session.refreshToken] as const,
    );
  }
  await context.addInitScript(FIRST_CARD_PROBE);
  return context;
}

/**
 * The critical path of one cold navigation: every request with its start and end (ms since navigation
 * start, from Resource Timing), then the moment the first card appeared.
 */
async function waterfall(browser: Browser, session: Session): Promise<string[]> {
  const context = await newContext(browser, session);
  const page = await context.newPage();
  await page.goto(`${stack.url}/dashboard`);
  await page.waitForSelector(CARD);
  const rows = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const entries = [
      { name: 'document', start: 0, end: nav.responseEnd },
      ...(performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((e) => ({
        name: new URL(e.name).pathname,
        start: e.startTime,
        end: e.responseEnd,
      })),
    ];
    const w = window as unknown as { __firstCard: number };
    return { entries, domContentLoaded: nav.domContentLoadedEventEnd, firstCard: w.__firstCard };
  });
  await context.close();
  const line = (name: string, start: number, end: number) =>
    `  ${start.toFixed(0).padStart(5)} → ${end.toFixed(0).padStart(5)} ms  ${name}`;
  return [
    ...rows.entries.sort((a, b) => a.start - b.start).map((e) => line(e.name, e.start, e.end)),
    `  DOMContentLoaded ${rows.domContentLoaded.toFixed(0)} ms, first card ${rows.firstCard.toFixed(0)} ms`,
  ];
}

function stats(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return `median ${at(0.5).toFixed(0)} ms, p90 ${at(0.9).toFixed(0)} ms, min ${s[0]!.toFixed(0)} ms, max ${s[s.length - 1]!.toFixed(0)} ms (${s.length} runs)`;
}

const ADMIN = { email: 'bench-admin@example.com', password: 'Bench-admin-pass-1' };
const stack = await startStack({ STATIC_DIR: dist, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
let browser: Browser | undefined;

/** The free plan's board limit would stop at a few boards: the administrator switches limits off. */
async function liftBoardLimits(): Promise<void> {
  const { accessToken } = await api<Session>(stack.url, 'POST', '/api/auth/login', ADMIN);
  const config = await api<Record<string, unknown>>(stack.url, 'GET', '/api/admin/config', undefined, accessToken).catch(() => null);
  if (!config) return; // no billing service: boards are unlimited anyway
  await api(stack.url, 'PUT', '/api/admin/config', { ...config, limits_enabled: false }, accessToken);
}

/** Creates a board, waiting while the limits-off entitlement travels to the boards service. */
async function createBoard(title: string, token: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await api(stack.url, 'POST', '/api/boards', { title }, token);
      return;
    } catch (err) {
      if (attempt > 40 || !String(err).includes('BOARD_LIMIT_REACHED')) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

try {
  await liftBoardLimits();
  const email = `bench-spa-${Date.now()}@example.com`;
  const password = 'Bench-password-1';
  await api(stack.url, 'POST', '/api/auth/register', { email, password, name: 'Бенчмарк' });
  const session = await api<Session>(stack.url, 'POST', '/api/auth/login', { email, password });
  for (let i = 0; i < (values['transfer-only'] ? 3 : BOARDS); i++) {
    await createBoard(`Доска ${i + 1}`, session.accessToken);
  }
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });

  const transfer: string[] = [];
  for (const [route, ready, signedIn] of [
    ['/login', '[data-testid="login-submit"]', false],
    ['/dashboard', CARD, true],
  ] as const) {
    transfer.push(...describeTransfer(await measureRoute(browser, `${stack.url}${route}`, ready, signedIn ? session : undefined)));
  }
  if (values['transfer-only']) {
    console.log(`\nSPA JavaScript on a cold load, headless Chromium (build ${path.relative(repoRoot, dist) || dist})`);
    console.log(`command: ${commandLine()}`);
    console.log('kB = 1000 bytes of response bodies as sent (brotli), until the route is ready, the page idle and the network quiet 500 ms:');
    for (const line of transfer) console.log(line);
  } else {
    const cold: number[] = [];
    const warm: number[] = [];
    for (let i = 0; i < runs + 1; i++) {
      // A fresh context is a cold cache; the second navigation in it reuses the cached assets.
      const context = await newContext(browser, session);
      const page = await context.newPage();
      for (const into of [cold, warm]) {
        // BENCH_SPA_PROFILE=file.cpuprofile: a CPU profile of the last cold navigation (open it in DevTools).
        const cdp = process.env.BENCH_SPA_PROFILE && i === runs && into === cold ? await context.newCDPSession(page) : null;
        if (cdp) {
          await cdp.send('Profiler.enable');
          await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
          await cdp.send('Profiler.start');
        }
        await page.goto(`${stack.url}/dashboard`);
        await page.waitForSelector(CARD);
        if (cdp) await writeFile(process.env.BENCH_SPA_PROFILE!, JSON.stringify((await cdp.send('Profiler.stop')).profile));
        const t = await page.evaluate(() => (window as unknown as { __firstCard: number }).__firstCard);
        if (i > 0) into.push(t); // the first round warms the server (JIT, caches, query plans)
      }
      await context.close();
    }

    console.log(`\nSPA in headless Chromium (embedded mode, build ${path.relative(repoRoot, dist) || dist})`);
    console.log(`command: ${commandLine()}`);
    console.log(`machine: ${machineInfo()}`);
    console.log('JavaScript transferred on a cold load:');
    for (const line of transfer) console.log(line);
    console.log(`navigation → first board card on /dashboard, ${BOARDS} boards:`);
    console.log(`  cold cache  ${stats(cold)}`);
    console.log(`  warm cache  ${stats(warm)}`);
    if (values.waterfall) {
      console.log('one cold navigation to /dashboard (request start → end):');
      for (const l of await waterfall(browser, session)) console.log(l);
    }
  }
} finally {
  await browser?.close();
  await stack.stop();
}
