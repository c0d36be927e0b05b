// Issue 13's figures: PNG, SVG and PDF of a 4,000×4,000 area holding 2,000 mixed objects, exports per
// second at 4 concurrent requests, and GET /api/auth/verify's p99 measured while those exports run.
// Issue 32's (trust.ts): RSS of 8 exports at once of 20 pictures of 7,000 × 7,000, and one user's
// flood of 10 export loops against verify's p99 and another owner's export.
// `npm run bench -- export [speed|trust|flood|bombs]`: one part only (trust = flood + bombs; default all).
// The product runs in its embedded mode in a child process; this process writes the board through a
// real y-websocket client and makes the calls.
import os from 'node:os';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { WebsocketProvider } from 'y-websocket';
import { PNG } from 'pngjs';
import { addArrow, addObject } from '@wb/board-model';
import { SIDE, area, mixedBoard } from './board.ts';
import { api, commandLine, load, machineInfo, startStack } from '../lib/harness.ts';
import { bombsBench, floodBench } from './trust.ts';

const CONCURRENT_SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const PART = process.argv[2] ?? 'all';

async function drawBoard(wsUrl: string, boardId: string, token: string, board: ReturnType<typeof mixedBoard>) {
  const doc = new Y.Doc();
  const provider = new WebsocketProvider(wsUrl, boardId, doc, { params: { token }, WebSocketPolyfill: WebSocket as never, disableBc: true });
  await new Promise<void>((resolve) => provider.once('sync', () => resolve()));
  // Batches, so no single update passes realtime's message limit.
  for (let i = 0; i < board.objects.length; i += 100) doc.transact(() => board.objects.slice(i, i + 100).forEach((o) => addObject(doc, o)));
  doc.transact(() => board.arrows.forEach((a) => addArrow(doc, a)));
  return provider;
}

async function exportOnce(base: string, token: string, boardId: string, format: string, where = area) {
  const t0 = performance.now();
  const res = await fetch(`${base}/api/export/${format}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ boardId, area: where }),
  });
  const body = Buffer.from(await res.arrayBuffer());
  if (!res.ok && process.env.BENCH_DEBUG) console.error(format, res.status, Math.round(performance.now() - t0), body.toString().slice(0, 200));
  return {
    ms: performance.now() - t0,
    bytes: body.length,
    status: res.status,
    timing: res.headers.get('server-timing') ?? '',
    position: res.headers.get('x-export-queue-position'),
  };
}


const ADMIN = { email: 'bench-admin@example.com', password: 'Bench-admin-password-1' };
const stack = await startStack({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
try {
  const base = stack.url;
  const reg = await api<{ accessToken: string }>(base, 'POST', '/api/auth/register', { email: `bench-export-${Date.now()}@example.com`, password: 'Bench-password-1', name: 'Экспорт' });
  const token = reg.accessToken;
  // PDF needs a plan that has it; with limits switched off (billing's system config) every user may.
  const admin = await api<{ accessToken: string }>(base, 'POST', '/api/auth/login', ADMIN);
  await api(base, 'PUT', '/api/admin/config', { limits_enabled: false }, admin.accessToken);
  for (let i = 0; i < 100; i++) {
    const { formats } = await api<{ formats: string[] }>(base, 'GET', '/api/export/formats', undefined, token);
    if (formats.includes('pdf')) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const { board } = await api<{ board: { id: string } }>(base, 'POST', '/api/boards', { title: 'Бенчмарк экспорта', folder_id: null }, token);
  await api(base, 'PATCH', `/api/boards/${board.id}`, { background: 'grid' }, token);
  const img = new PNG({ width: 64, height: 48 });
  for (let i = 0; i < img.data.length; i += 4) img.data.set([(i / 4) % 255, 120, 200, 255], i);
  const up = await fetch(`${base}/yjs/images/${board.id}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: new Uint8Array(PNG.sync.write(img)) });
  const imageUrl = ((await up.json()) as { url: string }).url;
  const content = mixedBoard(imageUrl);
  const provider = await drawBoard(base.replace('http', 'ws') + '/yjs', board.id, token, content);
  // Wait until realtime holds everything (the export reads its live state).
  for (let i = 0; i < 200; i++) {
    const svg = await exportOnce(base, token, board.id, 'svg');
    if (svg.status === 200 && svg.bytes > 0) {
      const text = await (await fetch(`${base}/api/export/svg`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ boardId: board.id, area }) })).text();
      if ((text.match(/data-id=/g) ?? []).length >= content.objects.length + content.arrows.length) break;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  provider.destroy();

  if (PART === 'all' || PART === 'speed') {
    const single: Record<string, { ms: number; bytes: number; timing: string }> = {};
    for (const format of ['svg', 'png', 'pdf']) {
      await exportOnce(base, token, board.id, format); // warm-up: threads, fonts
      const runs = [];
      for (let i = 0; i < 3; i++) runs.push(await exportOnce(base, token, board.id, format));
      if (runs.some((r) => r.status !== 200)) throw new Error(`${format} export answered ${runs.map((r) => r.status).join(',')}`);
      const mid = [...runs].sort((a, b) => a.ms - b.ms)[1]!;
      single[format] = { ms: mid.ms, bytes: mid.bytes, timing: mid.timing };
    }

    const verifyAlone = await load('GET /api/auth/verify, no exports', { url: `${base}/api/auth/verify`, connections: 10, duration: 10, warmup: 2, headers: { authorization: `Bearer ${token}` } });

    // 4 clients each exporting PNG back to back, while autocannon measures verify.
    let stop = false;
    let done = 0;
    let refused = 0;
    const started = performance.now();
    const clients = Array.from({ length: 4 }, async () => {
      while (!stop) {
        const r = await exportOnce(base, token, board.id, 'png');
        if (r.status === 200) done++;
        else refused++;
      }
    });
    const verifyDuring = await load('GET /api/auth/verify, 4 PNG exports running', { url: `${base}/api/auth/verify`, connections: 10, duration: CONCURRENT_SECONDS, headers: { authorization: `Bearer ${token}` } });
    stop = true;
    await Promise.all(clients);
    const seconds = (performance.now() - started) / 1000;

    console.log(`\n## export: ${SIDE}×${SIDE} area, ${content.objects.length} objects + ${content.arrows.length} arrows (grid background, one stored image used ${content.objects.filter((o) => o.type === 'image').length}×)`);
    console.log(`command: ${commandLine()}`);
    console.log(`machine: ${machineInfo()}`);
    console.log('| export (one at a time, median of 3) | ms | size |');
    console.log('|---|---|---|');
    for (const [format, r] of Object.entries(single)) console.log(`| ${format.toUpperCase()} | ${Math.round(r.ms)} | ${(r.bytes / 1024).toFixed(0)} KiB |`);
    // The service's own account of the median run (ms): the rest of the client's time is HTTP and transfer.
    console.log('');
    for (const [format, r] of Object.entries(single)) console.log(`server-timing ${format.toUpperCase()}: ${r.timing.replace(/;dur=/g, ' ')}`);
    console.log(`\nPNG exports at 4 concurrent requests: ${(done / seconds).toFixed(2)} exports/s (${done} in ${seconds.toFixed(1)} s, ${refused} answered 503)`);
    console.log('| GET /api/auth/verify | conns | req/s | p50 ms | p99 ms | max ms | errors |');
    console.log('|---|---|---|---|---|---|---|');
    for (const r of [verifyAlone, verifyDuring]) console.log(`| ${r.name} | ${r.connections} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.max} | ${r.errors + r.non2xx} |`);
  }

  if (PART !== 'speed') {
    console.log(`load average at the start: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    // Issue 32 (trust.ts). A second owner with a board of their own, and the big board's owner as the flooder.
    const other = await api<{ accessToken: string }>(base, 'POST', '/api/auth/register', { email: `bench-export-other-${Date.now()}@example.com`, password: 'Bench-password-1', name: 'Другой' });
    const otherBoard = (await api<{ board: { id: string } }>(base, 'POST', '/api/boards', { title: 'Другая доска', folder_id: null }, other.accessToken)).board;
    const wsUrl = base.replace('http', 'ws') + '/yjs';
    const small = mixedBoard(imageUrl);
    const otherProvider = await drawBoard(wsUrl, otherBoard.id, other.accessToken, { objects: small.objects.slice(0, 100).map((o, i) => ({ ...o, x: (i % 10) * 120, y: Math.floor(i / 10) * 80 }) as typeof o), arrows: [] });
    const call = (t: string, b: string, f: string, a: typeof area) => exportOnce(base, t, b, f, a);
    const flood = PART === 'bombs' ? null : await floodBench({ base, flooder: { token, boardId: board.id, area }, other: { token: other.accessToken, boardId: otherBoard.id }, verifyToken: other.accessToken, exportCall: call, seconds: CONCURRENT_SECONDS });
    otherProvider.destroy();
    const bombs = PART === 'flood' ? null : await bombsBench({
      base,
      pid: stack.pid,
      token,
      exportCall: call,
      drawBoard: async (id, objects) => {
        const p = await drawBoard(wsUrl, id, token, { objects: objects as never, arrows: [] });
        return () => p.destroy();
      },
    });

    if (flood) {
    console.log(`\n## export under a hostile user (issue 32 item 3): user 1 runs 10 PNG export loops of the ${SIDE}×${SIDE} board`);
    console.log(`command: ${commandLine()}`);
    console.log(`machine: ${machineInfo()}`);
    console.log(`user 1's answers during the flood: ${JSON.stringify(flood.flood)} (status: count)`);
    console.log(`user 2's PNG exports (1,200×800, 100 objects) during the flood: ${flood.otherRuns.map((r) => `${r.status} in ${Math.round(r.ms)} ms${r.position ? ` (waited at position ${r.position})` : ''}`).join('; ')}`);
    console.log('| GET /api/auth/verify | conns | req/s | p50 ms | p99 ms | max ms | errors |');
    console.log('|---|---|---|---|---|---|---|');
    const v = flood.verify;
    console.log(`| ${v.name} | ${v.connections} | ${v.rps} | ${v.p50} | ${v.p99} | ${v.max} | ${v.errors + v.non2xx} |`);
    }
    if (bombs) {

    const r = bombs.rss;
    console.log(`\n## image bombs (issue 32 item 1): 20 PNGs of 7,000×7,000 (${(bombs.uploadBytes / 1024).toFixed(0)} KiB each), drawn 700×700 in a ${bombs.area.width}×${bombs.area.height} area; 8 PNG exports at once`);
    console.log(`command: ${commandLine()}`);
    console.log(`machine: ${machineInfo()}`);
    console.log(`product process (pid ${stack.pid}) VmRSS, MiB: before the uploads ${r.beforeUploads}, after them ${r.afterUploads}; before the 8 exports ${r.before}, peak ${r.peak} (+${r.peak - r.before}), when the last answered ${r.atEnd}, then each second for 15 s: ${r.after.join(' ')}`);
    console.log(`warm-up export: ${bombs.warm.status} in ${Math.round(bombs.warm.ms)} ms; the 8: ${bombs.runs.map((x) => x.status).join(',')} in ${Math.round(bombs.wall)} ms wall`);
    console.log(`server-timing of one: ${(bombs.runs.find((x) => x.status === 200) ?? bombs.warm).timing.replace(/;dur=/g, ' ')}`);
    }
  }
} finally {
  await stack.stop();
}
// Something left behind (seen: the run printed its figures, the stack had stopped, and the process
// stayed) must not hold `npm run bench` and the bench lock: the figures are out, so leave.
if (process.env.BENCH_DEBUG) console.error('still active after stop:', process.getActiveResourcesInfo());
process.exit(0);
