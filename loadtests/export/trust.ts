// Issue 32's export figures (items 1 and 3), run by bench.ts against the product it started:
// - bombs: a board of 20 pictures of 7,000 × 7,000 pixels, exported 8 times at once; the product
//   process's RSS (VmRSS of the embedded stack, where uploads, exports and their render threads run)
//   before, at its peak, and after.
// - flood: one user running 10 PNG export loops of the big board while GET /api/auth/verify is
//   measured and another owner exports their own board.
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { api, load, type LoadResult } from '../lib/harness.ts';

export interface ExportCall {
  (token: string, boardId: string, format: string, area: { x: number; y: number; width: number; height: number }): Promise<{
    ms: number;
    bytes: number;
    status: number;
    timing: string;
    position: string | null;
  }>;
}

/** Resident memory of a process in MiB (Linux /proc). */
export function rssMiB(pid: number): number {
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Math.round(Number(kb ?? 0) / 1024);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function bombsBench(opts: {
  base: string;
  pid: number;
  token: string;
  exportCall: ExportCall;
  /** Draws through a y-websocket client; the answer closes it. */
  drawBoard(boardId: string, objects: Array<Record<string, unknown>>): Promise<() => void>;
}) {
  const { base, pid, token } = opts;
  const { board } = await api<{ board: { id: string } }>(base, 'POST', '/api/boards', { title: 'Бомбы', folder_id: null }, token);
  const SIDE = 700;
  const objects = [];
  let uploadBytes = 0;
  const rssBeforeUploads = rssMiB(pid);
  for (let i = 0; i < 20; i++) {
    // 49 M pixels in a small file: a different colour each, so the 20 are 20 pictures.
    const png = await sharp({ create: { width: 7000, height: 7000, channels: 3, background: { r: (i * 37) % 256, g: (i * 91) % 256, b: 128 } } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    uploadBytes = png.length;
    const up = await fetch(`${base}/yjs/images/${board.id}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: new Uint8Array(png) });
    if (up.status !== 201) throw new Error(`upload answered ${up.status} ${await up.text()}`);
    const { url } = (await up.json()) as { url: string };
    objects.push({ id: `bomb${i}`, type: 'image', x: (i % 5) * SIDE, y: Math.floor(i / 5) * SIDE, width: SIDE, height: SIDE, src: url, zIndex: i, reactions: [] });
  }
  const rssAfterUploads = rssMiB(pid);
  const close = await opts.drawBoard(board.id, objects);
  const area = { x: 0, y: 0, width: 5 * SIDE, height: 4 * SIDE };
  // Wait until realtime holds the 20 objects, and warm the render threads.
  for (let i = 0; i < 100; i++) {
    const r = await opts.exportCall(token, board.id, 'svg', area);
    if (r.status === 200 && r.bytes > 20 * 1000) break;
    await sleep(200);
  }
  close();
  const warm = await opts.exportCall(token, board.id, 'png', area);
  await sleep(2000);
  const before = rssMiB(pid);
  let peak = before;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, rssMiB(pid));
      await sleep(25);
    }
  })();
  const t0 = performance.now();
  const runs = await Promise.all(Array.from({ length: 8 }, () => opts.exportCall(token, board.id, 'png', area)));
  const wall = performance.now() - t0;
  sampling = false;
  await sampler;
  const rssAt = rssMiB(pid);
  // "Falls back": sampled for 15 s after the last export answered.
  const after: number[] = [];
  for (let s = 0; s < 15; s++) {
    await sleep(1000);
    after.push(rssMiB(pid));
  }
  return {
    uploadBytes,
    area,
    warm,
    runs,
    wall,
    rss: { beforeUploads: rssBeforeUploads, afterUploads: rssAfterUploads, before, peak, atEnd: rssAt, after },
  };
}

export async function floodBench(opts: {
  base: string;
  flooder: { token: string; boardId: string; area: { x: number; y: number; width: number; height: number } };
  other: { token: string; boardId: string };
  verifyToken: string;
  exportCall: ExportCall;
  seconds: number;
}) {
  let stop = false;
  const flood: Record<number, number> = {};
  const loops = Array.from({ length: 10 }, async () => {
    while (!stop) {
      const r = await opts.exportCall(opts.flooder.token, opts.flooder.boardId, 'png', opts.flooder.area);
      flood[r.status] = (flood[r.status] ?? 0) + 1;
      // A 429 says when to come back; a hostile loop would not wait, this one waits a moment.
      if (r.status !== 200) await sleep(200);
    }
  });
  // The flood takes the threads and the user's waiting line first.
  await sleep(3000);
  const otherRuns: Awaited<ReturnType<ExportCall>>[] = [];
  const other = (async () => {
    for (let i = 0; i < 5; i++) {
      otherRuns.push(await opts.exportCall(opts.other.token, opts.other.boardId, 'png', { x: 0, y: 0, width: 1200, height: 800 }));
      await sleep(500);
    }
  })();
  const verify: LoadResult = await load('GET /api/auth/verify, user 1 running 10 PNG export loops', {
    url: `${opts.base}/api/auth/verify`,
    connections: 10,
    duration: opts.seconds,
    headers: { authorization: `Bearer ${opts.verifyToken}` },
  });
  await other;
  stop = true;
  await Promise.all(loops);
  return { verify, flood, otherRuns };
}
