// Issue 32 item 6: from a logout to the first refused call and to the close of the session's sockets,
// in the embedded mode (one process) and in the local cluster (a process per service, NATS, two
// realtime replicas, a socket on each). Before the change the issue measured ~300 ms of 200s for
// plain calls and ~100 ms in which the token still opened a socket.
//
// Per round: a fresh session with a socket per realtime target, its token verified (and cached) by
// every prober target; then probers call in a tight loop with the token while the logout is sent.
import WebSocket from 'ws';
import { startCluster } from '../../deploy/local/cluster.ts';
import { api, commandLine, machineInfo, startStack } from '../lib/harness.ts';

const rounds = Number(process.env.BENCH_ROUNDS ?? 30);
const which = process.argv[2] ?? 'all';
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;

interface Target {
  /** Where the sockets go (gateway or one replica). */
  ws: string[];
  /** URLs called with the token, each must refuse after the answer. */
  probes: (boardId: string) => string[];
}

interface Round {
  answerMs: number;
  firstRefusedMs: number;
  closeMs: number[];
  /** Calls sent after the answer that still got 200 (must be 0). */
  lateOk: number;
  /** A socket opened after the answer that was admitted (must be 0). */
  lateSocket: number;
}

function openSocket(base: string, boardId: string, token: string): Promise<{ closed: Promise<{ code: number; at: number }> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base.replace('http', 'ws')}/yjs/${boardId}?token=${encodeURIComponent(token)}`);
    const closed = new Promise<{ code: number; at: number }>((r) => ws.once('close', (code) => r({ code, at: performance.now() })));
    ws.once('message', () => resolve({ closed }));
    ws.once('error', reject);
    void closed.then(({ code }) => reject(new Error(`socket closed before admission: ${code}`)));
  });
}

/** Resolves with the close code of a socket opened with a revoked token; 0 if it was admitted (a message arrived). */
function lateSocket(base: string, boardId: string, token: string): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${base.replace('http', 'ws')}/yjs/${boardId}?token=${encodeURIComponent(token)}`);
    ws.once('message', () => {
      resolve(0);
      ws.terminate();
    });
    ws.once('close', (code) => resolve(code));
    ws.once('error', () => {});
  });
}

async function round(base: string, target: Target, email: string, password: string, boardId: string): Promise<Round> {
  const session = await api<{ accessToken: string; refreshToken: string }>(base, 'POST', '/api/auth/login', { email, password });
  const token = session.accessToken;
  const sockets = await Promise.all(target.ws.map((w) => openSocket(w, boardId, token)));
  const urls = target.probes(boardId);
  for (const u of urls) {
    const r = await fetch(u, { headers: { authorization: `Bearer ${token}` } });
    if (r.status !== 200) throw new Error(`probe ${u} answered ${r.status} before the logout`);
  }
  let answeredAt = Infinity;
  let firstRefused = Infinity;
  let lateOk = 0;
  let done = false;
  const probers = urls.map(async (u) => {
    while (!done) {
      const sent = performance.now();
      const r = await fetch(u, { headers: { authorization: `Bearer ${token}` } });
      await r.arrayBuffer();
      if (r.status === 401) {
        firstRefused = Math.min(firstRefused, performance.now());
        if (sent > answeredAt) return;
      } else if (sent > answeredAt) lateOk++;
    }
  });
  // Let every prober have a call in flight before the logout leaves.
  await new Promise((r) => setTimeout(r, 5));
  const start = performance.now();
  const res = await fetch(`${base}/api/auth/logout`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refreshToken: session.refreshToken }),
  });
  answeredAt = performance.now();
  if (res.status !== 204) throw new Error(`logout answered ${res.status}`);
  const late = await Promise.all(target.ws.map((w) => lateSocket(w, boardId, token)));
  await Promise.race([Promise.all(probers), new Promise((r) => setTimeout(r, 5_000))]);
  done = true;
  const closes = await Promise.all(sockets.map((s) => Promise.race([s.closed, new Promise<{ code: number; at: number }>((r) => setTimeout(() => r({ code: -1, at: Infinity }), 5_000))])));
  for (const c of closes) if (c.code !== 4401) throw new Error(`a socket of the session closed with ${c.code}`);
  return {
    answerMs: answeredAt - start,
    firstRefusedMs: firstRefused - start,
    closeMs: closes.map((c) => c.at - start),
    lateOk,
    lateSocket: late.filter((code) => code === 0).length,
  };
}

async function measure(title: string, base: string, target: Target) {
  const email = `sessions-bench-${Date.now()}@example.com`;
  const password = 'Bench-password-1';
  const reg = await api<{ accessToken: string }>(base, 'POST', '/api/auth/register', { email, password, name: 'Бенчмарк' });
  const boardId = (await api<{ board: { id: string } }>(base, 'POST', '/api/boards', { title: 'Бенчмарк', folder_id: null }, reg.accessToken)).board.id;
  for (let i = 0; i < 3; i++) await round(base, target, email, password, boardId); // warm-up
  const all: Round[] = [];
  for (let i = 0; i < rounds; i++) all.push(await round(base, target, email, password, boardId));
  const row = (name: string, values: number[]) => {
    const s = [...values].sort((a, b) => a - b);
    const f = (n: number) => n.toFixed(1);
    return `| ${name} | ${s.length} | ${f(percentile(s, 50))} | ${f(percentile(s, 90))} | ${f(percentile(s, 99))} | ${f(s.at(-1)!)} |`;
  };
  console.log(`\n## ${title}`);
  console.log(`command: ${commandLine()}`);
  console.log(`machine: ${machineInfo()}`);
  console.log('times from the moment the logout request is sent (ms); probers call with the token in a tight loop meanwhile');
  console.log('| measure | samples | p50 | p90 | p99 | max |');
  console.log('|---|---|---|---|---|---|');
  console.log(row('logout answered (204)', all.map((r) => r.answerMs)));
  console.log(row('first 401 to a call with the token', all.map((r) => r.firstRefusedMs)));
  console.log(row('socket of the session received close 4401', all.flatMap((r) => r.closeMs)));
  console.log(row('close 4401 minus logout answer', all.flatMap((r) => r.closeMs.map((c) => c - r.answerMs))));
  const lateOk = all.reduce((n, r) => n + r.lateOk, 0);
  const lateSockets = all.reduce((n, r) => n + r.lateSocket, 0);
  console.log(`calls sent after the answer that got 200: ${lateOk}; sockets opened after the answer that were admitted: ${lateSockets} (of ${all.length * target.ws.length})`);
}

if (which === 'all' || which === 'embedded') {
  const stack = await startStack();
  try {
    await measure('logout → refused (embedded mode, one process)', stack.url, {
      ws: [stack.url],
      probes: (id) => [`${stack.url}/api/boards/${id}`, `${stack.url}/api/auth/verify`],
    });
  } finally {
    await stack.stop();
  }
}
if (which === 'all' || which === 'cluster') {
  const cluster = await startCluster({ realtimeReplicas: 2 });
  try {
    const replicas = cluster.realtimeReplicas.map((r) => r.url);
    await measure('logout → refused (local cluster: a process per service, NATS, two realtime replicas, a socket on each)', cluster.url, {
      ws: replicas,
      probes: (id) => [`${cluster.url}/api/boards/${id}`, `${cluster.url}/api/auth/verify`, ...replicas.map((r) => `${r}/api/boards/${id}/debug/snapshots`)],
    });
  } finally {
    await cluster.stop();
  }
}
