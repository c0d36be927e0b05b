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
} finally {
  await stack.stop();
}
