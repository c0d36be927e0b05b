/**
 * Keystroke → glyph (issue 35 item 4): the time from a key pressed in one browser context, typing
 * in a sticky's in-place editor, to the frame in which another context's canvas shows the change.
 * A's keydown is stamped in A's page (performance.timeOrigin + event.timeStamp); B watches the
 * sticky's pixels on its stage every animation frame (every layer composited, as the user sees
 * them) and stamps the first frame that differs from the one before the key. Both clocks are the
 * same machine's, so the difference is the whole path: A's input handler and Y.Text splice, A's
 * provider, the realtime service, B's provider, B's scene rebuild and paint.
 *
 *   npm run bench -- canvas --sizes 0 --page-objects 0 --text-keys 40   (only this figure)
 */
import type { Browser, Page } from 'playwright-core';

export interface TextLatencyFigures {
  samples: number[];
  medianMs: number;
  p90Ms: number;
  maxMs: number;
}

interface Session {
  accessToken: string;
  refreshToken: string;
}

const STICKY = { x: 0, y: 0, width: 400, height: 300 };
/** Keys of the US layout: Playwright types other characters without a keydown (insertText). */
const LETTERS = 'abcdefghkmnopqrstuvwxyzABCDEFGHKMNPRSTUVWXYZ';

async function json<T>(url: string, init: RequestInit): Promise<T> {
  const res = await fetch(url, init);
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function openBoard(browser: Browser, base: string, s: Session, boardId: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 800 } });
  await context.addInitScript('globalThis.__name = (f) => f');
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  await page.goto('/pricing');
  await page.waitForFunction(() => {
    const root = document.getElementById('root');
    return !!root && root.childElementCount > 0 && !root.querySelector('[data-testid="app-loading"]');
  });
  await page.evaluate(
    ([a, r]) => {
      localStorage.setItem('accessToken', a);
      localStorage.setItem('refreshToken', r);
    },
    [s.accessToken, s.refreshToken] as const,
  );
  await page.goto(`/board/${boardId}`);
  await page.waitForFunction(() => window.__wbCanvas?.stats.firstDrawAt != null, undefined, { timeout: 60_000 });
  // The sticky in the middle of the view at scale 1, text drawn at full size.
  await page.evaluate((b) => {
    const e = window.__wbCanvas!;
    e.setCamera({ x: e.viewport.width / 2 - (b.x + b.width / 2), y: e.viewport.height / 2 - (b.y + b.height / 2), scale: 1 });
  }, STICKY);
  return page;
}

/** Arms B: resolves (into window.__glyph) with the wall time of the first frame whose sticky pixels differ. */
async function arm(page: Page): Promise<void> {
  await page.evaluate((b) => {
    const e = window.__wbCanvas!;
    const tl = e.toScreen({ x: b.x, y: b.y });
    const canvases = [...document.querySelectorAll<HTMLCanvasElement>('[data-testid="canvas-stage"] canvas')];
    const ratio = canvases[0]!.width / canvases[0]!.clientWidth;
    const sx = Math.max(0, Math.floor(tl.x * ratio));
    const sy = Math.max(0, Math.floor(tl.y * ratio));
    const w = Math.floor(b.width * ratio);
    const h = Math.floor(b.height * ratio);
    const out = document.createElement('canvas');
    out.width = w;
    out.height = h;
    const ctx = out.getContext('2d', { willReadFrequently: true })!;
    const hash = () => {
      ctx.clearRect(0, 0, w, h);
      for (const c of canvases) if (c.isConnected && c.width > 0) ctx.drawImage(c, sx, sy, w, h, 0, 0, w, h);
      const data = ctx.getImageData(0, 0, w, h).data;
      let x = 2166136261;
      for (let i = 0; i < data.length; i += 4) x = Math.imul(x ^ (data[i]! + (data[i + 1]! << 8) + (data[i + 2]! << 16)), 16777619);
      return x;
    };
    const g = window as unknown as { __glyph: number | null };
    g.__glyph = null;
    const before = hash();
    const tick = () => {
      if (hash() !== before) g.__glyph = performance.timeOrigin + performance.now();
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }, STICKY);
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!;

/** Types `keys` letters in A, one at a time, each timed to B's drawn frame. */
export async function measureTextLatency(opts: { url: string; browser: Browser; keys: number }): Promise<TextLatencyFigures> {
  const base = opts.url;
  const email = `bench-text-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
  const headers = { 'Content-Type': 'application/json' };
  await json(`${base}/api/auth/register`, { method: 'POST', headers, body: JSON.stringify({ name: 'Bench', email, password: 'Secret-Pass-1' }) });
  const s = await json<Session>(`${base}/api/auth/login`, { method: 'POST', headers, body: JSON.stringify({ email, password: 'Secret-Pass-1' }) });
  const auth = { ...headers, Authorization: `Bearer ${s.accessToken}` };
  const { board } = await json<{ board: { id: string } }>(`${base}/api/boards`, { method: 'POST', headers: auth, body: JSON.stringify({ title: 'Bench text', folder_id: null }) });
  const a = await openBoard(opts.browser, base, s, board.id);
  const b = await openBoard(opts.browser, base, s, board.id);
  try {
    await a.evaluate(
      (st) => window.__wbCanvas!.add([{ id: 'typed', type: 'sticky', ...st, text: 'Ввод:', backgroundColor: '#FFF2B3', textColor: '#333333', fontSize: 14, textAlign: 'left', zIndex: 0 }] as never),
      STICKY,
    );
    await b.waitForFunction(() => window.__wbCanvas!.store.entries.has('typed'));
    // A opens the in-place editor with a double click, the caret at the end.
    const c = await a.evaluate((st) => window.__wbCanvas!.toScreen({ x: st.x + st.width / 2, y: st.y + st.height / 2 }), STICKY);
    const stage = (await a.locator('[data-testid="canvas-stage"]').boundingBox())!;
    await a.mouse.dblclick(stage.x + c.x, stage.y + c.y);
    await a.waitForSelector('[data-testid="text-editor-input"]');
    await a.keyboard.press('End');
    await a.evaluate(() => {
      const g = window as unknown as { __keyAt: number };
      document.addEventListener('keydown', (e) => (g.__keyAt = performance.timeOrigin + e.timeStamp), true);
    });
    const samples: number[] = [];
    const warmup = 3;
    for (let i = 0; i < opts.keys + warmup; i++) {
      // B at rest on the last key's text before the next key.
      await b.waitForFunction(
        (t) => String((window.__wbCanvas!.doc.getMap('objects').get('typed') as { get(k: string): unknown }).get('text')) === t,
        await a.inputValue('[data-testid="text-editor-input"]'),
      );
      // …and its frame complete (no tile still being painted), so only the key can change its pixels.
      await b.waitForFunction(() => window.__wbCanvas!.stats.complete !== false, undefined, { polling: 'raf' });
      await b.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await a.evaluate(() => ((window as unknown as { __keyAt: number | null }).__keyAt = null));
      await arm(b);
      await a.keyboard.type(LETTERS[i % LETTERS.length]!);
      await b.waitForFunction(() => (window as unknown as { __glyph: number | null }).__glyph !== null, undefined, { polling: 'raf', timeout: 30_000 });
      const drawn = await b.evaluate(() => (window as unknown as { __glyph: number }).__glyph);
      const key = await a.evaluate(() => (window as unknown as { __keyAt: number | null }).__keyAt);
      if (key === null) throw new Error(`key ${i}: no keydown seen in the typing page`);
      if (i >= warmup) samples.push(drawn - key);
      // A new line now and then, so the letters stay inside the sticky's drawn lines.
      if (i % 20 === 19) await a.keyboard.press('Enter');
    }
    if (process.env.BENCH_TEXT_TRACE) console.error(`keystroke → glyph samples (ms): ${samples.map((x) => x.toFixed(1)).join(' ')}`);
    return { samples, medianMs: quantile(samples, 0.5), p90Ms: quantile(samples, 0.9), maxMs: Math.max(...samples) };
  } finally {
    await a.context().close();
    await b.context().close();
  }
}

export function formatTextLatency(f: TextLatencyFigures): string[] {
  return [
    `Keystroke in one browser context → glyph drawn in another (in-place sticky editor, ${f.samples.length} keys): median ${f.medianMs.toFixed(1)} ms, p90 ${f.p90Ms.toFixed(1)} ms, max ${f.maxMs.toFixed(1)} ms`,
  ];
}
