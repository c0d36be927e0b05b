import autocannon from 'autocannon';
import { startPostgres } from '@wb/testkit';
import { register, startAuth } from './helpers.ts';
const pg = await startPostgres();
const a = await startAuth({ serverUrl: pg.url });
const u = await register(a.base);
for (const path of ['/health', '/api/auth/verify']) {
  const r = await autocannon({ url: `${a.base}${path}`, headers: { authorization: `Bearer ${u.accessToken}` }, connections: 20, duration: 4 });
  console.log(path, 'req/s', r.requests.average, 'p99 ms', r.latency.p99, 'non2xx', r.non2xx);
}
await a.close(); await pg.stop();
