// Issue 12's figures: GET /api/billing/plans through the gateway at 50 connections (embedded mode),
// and the time from a paid notification to the boards service applying the new board limit, with
// every service in its own process and events over NATS JetStream (local cluster mode).
import { startCluster } from '../../deploy/local/cluster.ts';
import { api, commandLine, load, machineInfo, printResults, startStack } from '../lib/harness.ts';

// The bench pays with billing's built-in test provider, which runs only when asked for.
process.env.PAYMENTS_TEST_PROVIDER ??= '1';

const duration = Number(process.env.BENCH_SECONDS ?? 15);
const payments = Number(process.env.BENCH_PAYMENTS ?? 40);
const PRO = { plan_id: '00000000-0000-4000-8000-000000000002', variant_id: '00000000-0000-4000-8000-000000000021' };

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function plansThroughput() {
  const stack = await startStack();
  try {
    const r = await load('GET /api/billing/plans', { url: `${stack.url}/api/billing/plans`, connections: 50, duration, warmup: 3 });
    printResults('billing plans through the gateway (embedded mode, one process)', [r]);
    return r;
  } finally {
    await stack.stop();
  }
}

/** One user: registered (Free), checkout, then the test provider's "paid" notification; until boards reports unlimited. */
async function paidToLimit(base: string, i: number): Promise<number> {
  const reg = await api<{ accessToken: string }>(base, 'POST', '/api/auth/register', {
    email: `billing-bench-${Date.now()}-${i}@example.com`,
    password: 'Bench-password-1',
    name: 'Бенчмарк',
  });
  const limits = () => api<{ limits: { max: number } }>(base, 'GET', '/api/boards?limit=1', undefined, reg.accessToken);
  // Free must have arrived first, or the measurement would start from "no limit".
  while ((await limits()).limits.max !== 3) await new Promise((r) => setTimeout(r, 20));
  const order = await api<{ data: { checkout_url: string } }>(base, 'POST', '/api/billing/checkout', PRO, reg.accessToken);
  const started = performance.now();
  // The test checkout page's "Оплатить": the order owner's call.
  const paid = await fetch(order.data.checkout_url, {
    method: 'POST',
    headers: { authorization: `Bearer ${reg.accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ outcome: 'pay' }),
  });
  if (paid.status !== 200) throw new Error(`test provider answered ${paid.status}`);
  while ((await limits()).limits.max !== -1) {
    if (performance.now() - started > 30_000) throw new Error('the new limit never reached boards');
    await new Promise((r) => setTimeout(r, 2));
  }
  return performance.now() - started;
}

async function paidToLimitOverNats() {
  const cluster = await startCluster();
  try {
    const times: number[] = [];
    for (let i = 0; i < 3; i++) await paidToLimit(cluster.url, -1 - i); // warm-up
    for (let i = 0; i < payments; i++) times.push(await paidToLimit(cluster.url, i));
    times.sort((a, b) => a - b);
    const f = (n: number) => n.toFixed(1);
    console.log('\n## paid notification → new board limit applied by boards (local cluster: a process per service, NATS JetStream)');
    console.log(`command: ${commandLine()}`);
    console.log(`machine: ${machineInfo()}`);
    console.log('(includes the notification request itself and a 2 ms polling step of GET /api/boards through the gateway)');
    console.log('| payments | p50 ms | p90 ms | p99 ms | max ms |');
    console.log('|---|---|---|---|---|');
    console.log(`| ${times.length} | ${f(percentile(times, 50))} | ${f(percentile(times, 90))} | ${f(percentile(times, 99))} | ${f(times.at(-1)!)} |`);
    return percentile(times, 99);
  } finally {
    await cluster.stop();
  }
}

const plans = await plansThroughput();
const p99 = await paidToLimitOverNats();
const ok = plans.p99 < 20 && plans.errors === 0 && plans.non2xx === 0 && p99 < 1000;
console.log(`\ntargets: plans p99 < 20 ms (${plans.p99} ms), paid → limit p99 < 1000 ms (${p99.toFixed(1)} ms): ${ok ? 'met' : 'NOT met'}`);
process.exit(ok ? 0 : 1);
