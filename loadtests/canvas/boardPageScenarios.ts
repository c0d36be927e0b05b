/**
 * Board-page scenarios of the canvas benchmark (issue 11):
 *  - navigation → interactive for a board of N objects opened a second time (IndexedDB warm),
 *    next to the first (cold) open for comparison;
 *  - cursor latency between two browser contexts (pointer move in A → the cursor drawn in B).
 * Exported for loadtests/canvas/bench.ts; `board-page-bench.ts` runs them alone.
 */
import type { Browser, Page } from 'playwright-core';
import { api } from '../lib/harness.ts';

export interface BoardPageFigures {
  objects: number;
  coldOpenMs: number;
  warmOpenMs: number[];
  /** Where a warm open's time goes: ms from navigation start to each step (medians over the warm runs). */
  warmSteps: Record<string, number>;
  cursorLatencyMs: { samples: number; p50: number; p95: number; max: number };
  /** p50 / p95 of each leg: mouse → A's awareness, A → B's awareness (socket + server), B's awareness → DOM, received → drawn there. */
  cursorLegsMs: Record<string, { p50: number; p95: number }>;
}

async function startProfile(page: Page): Promise<{ stop(file: string): Promise<void> }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  return {
    async stop(file) {
      const { profile } = await cdp.send('Profiler.stop');
      const { writeFile } = await import('node:fs/promises');
      await writeFile(file, JSON.stringify(profile));
      await cdp.detach();
    },
  };
}

/** ms from navigation start to the page's user-timing marks (markOpen in the board page) and other steps. */
async function openSteps(page: Page): Promise<Record<string, number>> {
  return page.evaluate(() => {
    const out: Record<string, number> = {};
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    if (nav) {
      out['html'] = nav.responseEnd;
      out['dom-content-loaded'] = nav.domContentLoadedEventEnd;
    }
    for (const r of performance.getEntriesByType('resource') as PerformanceResourceTiming[]) {
      const path = new URL(r.name).pathname;
      const key = path.endsWith('/auth/verify') ? 'auth-verify' : /\/api\/boards\/[^/]+$/.test(path) ? 'board-call' : /\/camera$/.test(path) ? 'camera-call' : null;
      if (key && !(`${key}-end` in out)) {
        out[`${key}-start`] = r.startTime;
        out[`${key}-end`] = r.responseEnd;
      }
    }
    for (const m of performance.getEntriesByType('mark')) if (m.name.startsWith('wb:')) out[m.name.slice(3)] = m.startTime;
    const first = (window as unknown as { __wbCanvas?: { stats: { firstDrawAt: number | null } } }).__wbCanvas?.stats.firstDrawAt;
    if (first != null) out['first-draw'] = first;
    for (const k of Object.keys(out)) out[k] = Math.round(out[k]!);
    return out;
  });
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

async function account(url: string, prefix: string): Promise<{ token: string; refresh: string }> {
  const email = `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;
  const password = 'Bench-Pass-123';
  await api(url, 'POST', '/api/auth/register', { name: 'Замер', email, password });
  const { accessToken, refreshToken } = await api<{ accessToken: string; refreshToken: string }>(url, 'POST', '/api/auth/login', {
    email,
    password,
  });
  return { token: accessToken, refresh: refreshToken };
}

async function signIn(page: Page, url: string, tokens: { token: string; refresh: string }): Promise<void> {
  await page.goto(`${url}/pricing`);
  // The app module loads after the entry and its initAuth clears a visitor's tokens: let it run first.
  await page.waitForFunction(() => {
    // index.html's own loader sits in #root until React's first commit; once the page shows, initAuth has run.
    const root = document.getElementById('root');
    return !!root && root.childElementCount > 0 && !root.querySelector('[data-testid="app-loading"]');
  });
  await page.evaluate(([a, r]) => {
    localStorage.setItem('accessToken', a);
    localStorage.setItem('refreshToken', r);
  }, [tokens.token, tokens.refresh] as const);
}

/**
 * Navigates and answers the ms from navigation start until the board is interactive: loading
 * screens gone, the camera ready, every object in the canvas's scene, and one frame drawn.
 */
async function openAndTime(page: Page, boardUrl: string, objects: number): Promise<number> {
  await page.goto(boardUrl, { waitUntil: 'commit' });
  const handle = await page.waitForFunction(
    (n) => {
      const engine = (window as unknown as { __wbCanvas?: { store: { entries: Map<string, unknown> }; stats: { firstDrawAt: number | null } } }).__wbCanvas;
      const ready =
        !!document.querySelector('[data-testid="board-page"]') &&
        !document.querySelector('[data-testid="board-setting-up"]') &&
        !!engine &&
        engine.store.entries.size >= n &&
        (n === 0 || engine.stats.firstDrawAt !== null);
      return ready ? performance.now() : false;
    },
    objects,
    { polling: 'raf', timeout: 120_000 },
  ).catch(async (err: unknown) => {
    const shown = await page.locator('body').innerText().catch(() => '?');
    throw new Error(`board not interactive at ${page.url()}: «${shown.slice(0, 300)}»`, { cause: err });
  });
  return Math.round((await handle.jsonValue()) as number);
}

async function seedBoard(page: Page, count: number): Promise<void> {
  await page.evaluate(async (n) => {
    const engine = (window as unknown as { __wbCanvas: { add(objs: unknown[]): void } }).__wbCanvas;
    const objs: unknown[] = [];
    for (let i = 0; i < n; i++) {
      // 100 per row on a 75-unit grid: inside the smallest plan's bounded canvas (±4000).
      const x = (i % 100) * 75 - 3750;
      const y = Math.floor(i / 100) * 75 - 1875;
      const id = `bench-${i}`;
      objs.push(
        i % 3 === 0
          ? { id, type: 'sticky', zIndex: i, x, y, width: 60, height: 60, text: `Стикер ${i}`, backgroundColor: '#FFF2B3', textColor: '#333333', fontSize: 14, textAlign: 'left', reactions: [] }
          : i % 3 === 1
            ? { id, type: 'rectangle', zIndex: i, x, y, width: 60, height: 40, fill: '#BBDEFB', stroke: '#1E88E5', strokeWidth: 2, rotation: 0 }
            : { id, type: 'ellipse', zIndex: i, x: x + 30, y: y + 30, radiusX: 30, radiusY: 20, fill: '#C8E6C9', stroke: '#43A047', strokeWidth: 2 },
      );
    }
    // One socket message per chunk: the server refuses oversized messages.
    for (let i = 0; i < objs.length; i += 500) {
      engine.add(objs.slice(i, i + 500));
      await new Promise((r) => setTimeout(r, 100));
    }
  }, count);
}

export async function runBoardPageScenarios(opts: { url: string; browser: Browser; objects: number; warmRuns: number; cursorMoves: number }): Promise<BoardPageFigures> {
  const { url, browser, objects } = opts;
  const owner = await account(url, 'bench-page');
  const { board } = await api<{ board: { id: string } }>(url, 'POST', '/api/boards', { title: 'Замер страницы', folder_id: null }, owner.token);
  const boardUrl = `${url}/board/${board.id}`;

  // Seed through the canvas of one context, then make the server persist it.
  const seeder = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const seedPage = await seeder.newPage();
  await signIn(seedPage, url, owner);
  await openAndTime(seedPage, boardUrl, 0);
  await seedBoard(seedPage, objects);
  await seedPage
    .waitForFunction(
      (n) => (window as unknown as { __wbCanvas: { store: { entries: Map<string, unknown> } } }).__wbCanvas.store.entries.size >= n,
      objects,
      { timeout: 60_000 },
    )
    .catch(async () => {
      const seeded = await seedPage.evaluate(() => (window as unknown as { __wbCanvas: { store: { entries: Map<string, unknown> } } }).__wbCanvas.store.entries.size);
      throw new Error(`seeding gave ${seeded} of ${objects} objects`);
    });
  await seedPage.waitForTimeout(3000); // the updates reach the server
  const saved = await api<{ objects_count: number }>(url, 'POST', '/yjs/force-save', { boardId: board.id }, owner.token);
  if (saved.objects_count < objects) throw new Error(`the server holds ${saved.objects_count} of ${objects} objects`);
  await seeder.close();

  // A fresh context: the first open fills IndexedDB, the next ones read it.
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await ctx.newPage();
  await signIn(page, url, owner);
  const coldOpenMs = await openAndTime(page, boardUrl, objects);
  await page.waitForTimeout(1500); // y-indexeddb stores the synced state
  const warmOpenMs: number[] = [];
  const steps: Record<string, number>[] = [];
  for (let i = 0; i < opts.warmRuns; i++) {
    // BENCH_PAGE_PROFILE=file.cpuprofile: a CPU profile of the last warm open (open it in DevTools).
    const profile = process.env.BENCH_PAGE_PROFILE && i === opts.warmRuns - 1 ? await startProfile(page) : null;
    warmOpenMs.push(await openAndTime(page, boardUrl, objects));
    if (profile) await profile.stop(process.env.BENCH_PAGE_PROFILE!);
    steps.push(await openSteps(page));
    await page.waitForTimeout(500); // the socket's sync lands in IndexedDB before the next reload
  }
  const warmSteps: Record<string, number> = {};
  for (const k of new Set(steps.flatMap((x) => Object.keys(x)))) {
    const vals = steps.map((x) => x[k]).filter((v): v is number => v !== undefined).sort((p, q) => p - q);
    warmSteps[k] = vals[Math.floor(vals.length / 2)]!;
  }

  // Cursor latency: A moves, B records when the cursor with that x is drawn (same clock: one machine).
  const b = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const pageB = await b.newPage();
  await signIn(pageB, url, owner);
  await openAndTime(pageB, boardUrl, objects);
  // Awareness timestamps on both sides (the page exposes its connection as window.__wbBoard).
  type Aw = { clientID: number; on(e: string, f: (ch: { added: number[]; updated: number[] }, origin: unknown) => void): void; getStates(): Map<number, { cursor?: { x: number } | null }> };
  const hookAwareness = (side: 'A' | 'B') =>
    (side === 'A' ? page : pageB).evaluate((s) => {
      const aw = (window as unknown as { __wbBoard: { provider: { awareness: Aw } } }).__wbBoard.provider.awareness;
      const log: [number, number][] = [];
      (window as unknown as { __awLog: [number, number][] }).__awLog = log;
      aw.on('change', ({ added, updated }, origin) => {
        const now = performance.timeOrigin + performance.now();
        for (const id of [...added, ...updated]) {
          if ((s === 'A') !== (id === aw.clientID) || (s === 'A' && origin !== 'local')) continue;
          const c = aw.getStates().get(id)?.cursor;
          if (c) log.push([Math.round(c.x), now]);
        }
      });
    }, side);
  await hookAwareness('A');
  await hookAwareness('B');
  await pageB.evaluate(() => {
    const seen: [number, number][] = [];
    const drawn: [number, number][] = [];
    (window as unknown as { __cursorSeen: [number, number][] }).__cursorSeen = seen;
    (window as unknown as { __cursorDrawn: [number, number][] }).__cursorDrawn = drawn;
    // data-x: the position received; data-drawn-x: the cursor drawn there (after the easing).
    new MutationObserver((records) => {
      const now = performance.timeOrigin + performance.now();
      for (const r of records) {
        const el = r.target as HTMLElement;
        if (el.dataset?.testid !== 'remote-cursor') continue;
        if (r.attributeName === 'data-x' && el.dataset.x) seen.push([Number(el.dataset.x), now]);
        if (r.attributeName === 'data-drawn-x' && el.dataset.drawnX) drawn.push([Number(el.dataset.drawnX), now]);
      }
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-x', 'data-drawn-x'], childList: true });
  });
  const stage = (await page.locator('[data-testid="canvas-stage"]').boundingBox())!;
  const sent: [number, number][] = [];
  for (let i = 0; i < opts.cursorMoves; i++) {
    const sx = stage.x + 200 + (i % 60) * 13;
    const sy = stage.y + 200 + Math.floor(i / 60) * 7;
    const boardX = await page.evaluate(
      ([x, y, ox, oy]) =>
        Math.round((window as unknown as { __wbCanvas: { toBoard(p: { x: number; y: number }): { x: number } } }).__wbCanvas.toBoard({ x: x - ox, y: y - oy }).x),
      [sx, sy, stage.x, stage.y] as const,
    );
    const t0 = Date.now();
    await page.mouse.move(sx, sy);
    sent.push([boardX, t0]);
    await page.waitForTimeout(100);
  }
  await page.waitForTimeout(1000);
  const seen = await pageB.evaluate(() => (window as unknown as { __cursorSeen: [number, number][] }).__cursorSeen);
  const drawn = await pageB.evaluate(() => (window as unknown as { __cursorDrawn: [number, number][] }).__cursorDrawn);
  const logA = await page.evaluate(() => (window as unknown as { __awLog: [number, number][] }).__awLog);
  const logB = await pageB.evaluate(() => (window as unknown as { __awLog: [number, number][] }).__awLog);
  const firstAt = (log: [number, number][], x: number, after: number) => log.find(([lx, t]) => lx === x && t >= after)?.[1];
  const latencies: number[] = [];
  const legs: Record<string, number[]> = {
    'mouse → A awareness': [],
    'A → B awareness': [],
    'B awareness → DOM': [],
    'B received → drawn there': [],
  };
  let from = 0;
  for (const [x, t0] of sent) {
    const idx = seen.findIndex(([sx, t], k) => k >= from && sx === x && t >= t0);
    if (idx >= 0) {
      const tDom = seen[idx]![1];
      const tDrawn = drawn.find(([dx, t]) => dx === x && t >= tDom)?.[1];
      // What the eye sees: the cursor drawn at the new place (the position received when the
      // easing was overtaken by the next move, which a 100 ms pace makes rare).
      latencies.push((tDrawn ?? tDom) - t0);
      if (tDrawn !== undefined) legs['B received → drawn there']!.push(tDrawn - tDom);
      from = idx;
      const tA = firstAt(logA, x, t0);
      const tB = tA === undefined ? undefined : firstAt(logB, x, tA);
      if (tA !== undefined && tB !== undefined) {
        legs['mouse → A awareness']!.push(tA - t0);
        legs['A → B awareness']!.push(tB - tA);
        legs['B awareness → DOM']!.push(tDom - tB);
      }
    }
  }
  latencies.sort((p, q) => p - q);
  const cursorLegsMs: Record<string, { p50: number; p95: number }> = {};
  for (const [k, v] of Object.entries(legs)) {
    v.sort((p, q) => p - q);
    cursorLegsMs[k] = { p50: Math.round(percentile(v, 50)), p95: Math.round(percentile(v, 95)) };
  }
  await b.close();
  await ctx.close();
  return {
    objects,
    coldOpenMs,
    warmOpenMs,
    warmSteps,
    cursorLegsMs,
    cursorLatencyMs: {
      samples: latencies.length,
      p50: Math.round(percentile(latencies, 50)),
      p95: Math.round(percentile(latencies, 95)),
      max: Math.round(latencies.at(-1) ?? NaN),
    },
  };
}

/** The figures as printed lines (shared by bench.ts and board-page-bench.ts). */
export function formatBoardPageFigures(f: BoardPageFigures): string[] {
  const steps = Object.entries(f.warmSteps)
    .sort((a, b) => a[1] - b[1])
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  const legs = Object.entries(f.cursorLegsMs)
    .map(([k, v]) => `${k} p50 ${v.p50} / p95 ${v.p95}`)
    .join('; ');
  return [
    `Board page, ${f.objects.toLocaleString('en')} objects: first open ${f.coldOpenMs} ms; second open (IndexedDB warm) ${f.warmOpenMs.join(' / ')} ms (aim < 500)`,
    `  warm open steps (ms from navigation start, medians): ${steps}`,
    `Cursor latency between two contexts: ${f.cursorLatencyMs.samples} samples, p50 ${f.cursorLatencyMs.p50} ms, p95 ${f.cursorLatencyMs.p95} ms, max ${f.cursorLatencyMs.max} ms (aim p95 < 100)`,
    `  legs (ms): ${legs}`,
  ];
}
