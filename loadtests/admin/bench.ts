// Issue 34 item 1: GET /api/admin/stats and /api/admin/activity through the gateway (embedded mode,
// one process) at 20 connections, with 10,000 users and 100,000 boards kept in the counters and the
// activity feed. The data goes in through admin-monitoring's own consumers (their handlers, in
// idempotent() as in production), so the tables are what those events leave behind.
//   BENCH_USERS, BENCH_BOARDS, BENCH_SECONDS (15), BENCH_CONNECTIONS (20)
import { createPool } from '@wb/db';
import { seedAdminBenchmark } from '@wb/admin-monitoring/bench-seed';
import { api, commandLine, load, machineInfo, printResults, startStack } from '../lib/harness.ts';

const users = Number(process.env.BENCH_USERS ?? 10_000);
const boards = Number(process.env.BENCH_BOARDS ?? 100_000);
const duration = Number(process.env.BENCH_SECONDS ?? 15);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const ADMIN = { email: 'bench-admin@example.com', password: 'Bench-Admin-123' };
const TARGET_P99_MS = 20;

const stack = await startStack({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
const pool = createPool({ url: stack.databaseUrl, schema: 'admin', max: 10 });
// The seed's own commits skip the WAL flush wait (same rows, same handlers): 110,000 transactions
// each waiting for an fsync would take a quarter of an hour on a loaded 2-core machine.
pool.on('connect', (client) => void client.query('SET synchronous_commit TO off'));
let ok: boolean | undefined;
try {
  const seed = await seedAdminBenchmark(pool, {
    users,
    boards,
    onProgress: (done, total) => process.stderr.write(`\r[admin bench] seeded ${done} of ${total} events`),
  });
  process.stderr.write('\n');
  const { accessToken } = await api<{ accessToken: string }>(stack.url, 'POST', '/api/auth/login', ADMIN);
  const headers = { authorization: `Bearer ${accessToken}` };
  const stats = await api<{ totalUsers: number; totalBoards: number }>(stack.url, 'GET', '/api/admin/stats', undefined, accessToken);
  const activity = await api<{ activity: unknown[] }>(stack.url, 'GET', '/api/admin/activity', undefined, accessToken);
  if (stats.totalUsers < users || stats.totalBoards < boards) throw new Error(`the counters do not hold the seed: ${JSON.stringify(stats)}`);
  const rows = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM activity');

  const results = [
    // The same stack's cheapest authenticated call, for what the machine gives any request now.
    await load('GET /api/auth/verify (reference)', { url: `${stack.url}/api/auth/verify`, connections, duration, headers, warmup: 3 }),
    await load('GET /api/admin/stats', { url: `${stack.url}/api/admin/stats`, connections, duration, headers, warmup: 3 }),
    await load('GET /api/admin/activity', { url: `${stack.url}/api/admin/activity`, connections, duration, headers, warmup: 3 }),
  ];
  console.log(
    `\nseeded through the consumers: ${users} users + ${boards} boards = ${seed.events} events in ${(seed.ms / 1000).toFixed(1)} s ` +
      `(${Math.round(seed.events / (seed.ms / 1000))} events/s, 8 at once); counters: ${stats.totalUsers} users, ${stats.totalBoards} boards; ` +
      `activity rows: ${rows.rows[0]!.n}, answered: ${activity.activity.length}`,
  );
  printResults(`admin stats and activity through the gateway (embedded mode, one process; ${users} users, ${boards} boards)`, results);
  ok = results.slice(1).every((r) => r.p99 < TARGET_P99_MS && r.errors === 0 && r.non2xx === 0);
  console.log(`\ntarget: p99 < ${TARGET_P99_MS} ms at ${connections} connections (${results.slice(1).map((r) => `${r.name} ${r.p99} ms`).join(', ')}): ${ok ? 'met' : 'NOT met'}`);
  console.log(`command: ${commandLine()}\nmachine: ${machineInfo()}`);
} finally {
  await pool.end();
  await stack.stop();
}
process.exit(ok ? 0 : 1);
