// Issue 3's figures: GET /api/boards for an account with 10,000 boards in 200 folders and 50 tags
// (first page, search, tag filter, folder filter) and the folder tree of a 1,000-folder account,
// through the gateway at 20 concurrent requests. Each scenario repeats one call, so with the answer
// cache on (the default) it measures repeated loads; `-- boards --no-cache` measures building every answer.
import { createPool } from '@wb/db';
import { seedBoardsBenchmark } from '@wb/boards/bench-seed';
import { api, load, printResults, startStack, type LoadResult } from '../lib/harness.ts';

const duration = Number(process.env.BENCH_SECONDS ?? 15);
const connections = 20;
// --no-cache: every answer is built again (LIST_CACHE_MB=0), the cost of a first load or of one after a write.
const noCache = process.argv.includes('--no-cache');
const stack = await startStack(noCache ? { LIST_CACHE_MB: '0' } : {});
try {
  const big = await api<{ accessToken: string; user: { id: string } }>(stack.url, 'POST', '/api/auth/register', {
    email: `boards-${Date.now()}@example.com`,
    password: 'Bench-password-1',
    name: 'Бенчмарк',
  });
  const trees = await api<{ accessToken: string; user: { id: string } }>(stack.url, 'POST', '/api/auth/register', {
    email: `folders-${Date.now()}@example.com`,
    password: 'Bench-password-1',
    name: 'Папки',
  });
  const pool = createPool({ url: stack.databaseUrl, schema: 'boards' });
  await seedBoardsBenchmark(pool, { userId: big.user.id, userName: 'Бенчмарк' });
  // 1,000 folders: 200 roots with 4 subfolders each.
  await seedBoardsBenchmark(pool, { userId: trees.user.id, userName: 'Папки', boards: 2_000, rootFolders: 200, subfoldersPerRoot: 4, tags: 10 });
  // Steady state, as autovacuum leaves it: the seed's bulk writes otherwise leave the trigram index's
  // pending list unmerged, and every search scans it (6 ms instead of 1 ms for a rare pattern).
  await pool.query('VACUUM ANALYZE');
  await pool.end();

  const auth = (t: string) => ({ authorization: `Bearer ${t}` });
  const tags = (await api<{ tags: { id: string }[] }>(stack.url, 'GET', '/api/tags', undefined, big.accessToken)).tags;
  const folders = (await api<{ folders: { id: string }[] }>(stack.url, 'GET', '/api/folders', undefined, big.accessToken)).folders;
  const cases: Array<[string, string, string]> = [
    ['GET /api/boards (first page of 50)', '/api/boards', big.accessToken],
    ['GET /api/boards?search=ретро', `/api/boards?search=${encodeURIComponent('ретро')}`, big.accessToken],
    ['GET /api/boards?search=спринта 999 (rare)', `/api/boards?search=${encodeURIComponent('спринта 999')}`, big.accessToken],
    ['GET /api/boards?tags=<2 tags>', `/api/boards?tags=${tags[3]!.id},${tags[21]!.id}`, big.accessToken],
    ['GET /api/boards?folder_id=<folder>', `/api/boards?folder_id=${folders[3]!.id}`, big.accessToken],
    ['GET /api/boards?limit=500', '/api/boards?limit=500', big.accessToken],
    ['GET /api/folders (200 folders)', '/api/folders', big.accessToken],
    ['GET /api/folders (1,000 folders)', '/api/folders', trees.accessToken],
  ];
  const results: LoadResult[] = [];
  for (const [name, path, token] of cases) {
    results.push(await load(name, { url: stack.url + path, connections, duration, warmup: 2, headers: auth(token) }));
  }
  printResults(
    `boards through the gateway (embedded mode, one process; 10,000 boards, 200 folders, 50 tags; ${noCache ? 'answer cache off' : 'repeated loads, answer cache on'})`,
    results,
  );
} finally {
  await stack.stop();
}
