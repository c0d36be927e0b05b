// Issue 2's figures: login throughput (argon2id-bound) and token verification through the gateway.
import { api, load, printResults, startStack } from '../lib/harness.ts';

const duration = Number(process.env.BENCH_SECONDS ?? 15);
const stack = await startStack();
try {
  const email = `bench-${Date.now()}@example.com`;
  const password = 'Bench-password-1';
  const reg = await api<{ accessToken: string }>(stack.url, 'POST', '/api/auth/register', { email, password, name: 'Бенчмарк' });
  const results = [];
  results.push(
    await load('POST /api/auth/login', {
      url: `${stack.url}/api/auth/login`,
      method: 'POST',
      connections: 8,
      duration,
      warmup: 2,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    }),
  );
  results.push(
    await load('GET /api/auth/verify', {
      url: `${stack.url}/api/auth/verify`,
      connections: 50,
      duration,
      warmup: 3,
      headers: { authorization: `Bearer ${reg.accessToken}` },
    }),
  );
  printResults('auth through the gateway (embedded mode, one process)', results);
  console.log(await loginTimingRatio(stack.url));
} finally {
  await stack.stop();
}

/**
 * Issue 36: a wrong password for a registered address and any password for an unknown one take
 * comparable time (auth's dummy hash check), so the timing does not tell which addresses exist.
 * Measured here on a quiet run (services/auth/test/auth.test.ts keeps only a bound a loaded machine
 * cannot miss). Fresh accounts for the known side, so no brute-force limit answers early.
 */
async function loginTimingRatio(base: string): Promise<string> {
  const login = async (email: string) => {
    const t = performance.now();
    const res = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'Wrong-password-1' }),
    });
    await res.arrayBuffer();
    return performance.now() - t;
  };
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const known: number[] = [];
  const unknown: number[] = [];
  await login(`warm-${Date.now()}@example.com`); // the dummy hash is made on first use
  for (let i = 0; i < 9; i++) {
    const email = `timing-${Date.now()}-${i}@example.com`;
    await api(base, 'POST', '/api/auth/register', { email, password: 'Bench-password-1', name: 'Замер' });
    known.push(await login(email));
    unknown.push(await login(`nobody-${Date.now()}-${i}@example.com`));
  }
  const [k, u] = [median(known), median(unknown)];
  return `login with a wrong password, median of 9: known address ${k.toFixed(1)} ms, unknown ${u.toFixed(1)} ms, ratio unknown/known ${(u / k).toFixed(2)}`;
}
