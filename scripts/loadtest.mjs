// `npm run loadtest [-- http|ws] [--target URL]`: the Artillery load tests (loadtests/artillery).
// Without --target (or LT_TARGET) they run against the local cluster, started on free ports and
// stopped afterwards. Exits non-zero when an `ensure` threshold fails.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ensureInfra } from './ensure-infra.mjs';
import { repoRoot } from './lib/frontend-build.mjs';
import { ensureSupportedNode } from './node-runtime.mjs';

await ensureSupportedNode();
const args = process.argv.slice(2);
const remote = args.includes('--target') || args.some((a) => a.startsWith('--target=')) || !!process.env.LT_TARGET;
// The local cluster needs node_modules, NATS and FerretDB; a remote target only node_modules.
const problems = ensureInfra({ browser: false, go: !remote, apt: !remote, quiet: true });
if (problems.length) {
  for (const p of problems) console.error(`[loadtest] ${p}`);
  process.exit(1);
}
// Every board's users on a socket each: the default open-files limit of 1024 is too few for 500.
const r = spawnSync('bash', ['-c', 'ulimit -n 65536 2>/dev/null || ulimit -n $(ulimit -Hn); exec "$0" "$@"', process.execPath, '--import', 'tsx', path.join('loadtests', 'artillery', 'run.ts'), ...args], {
  cwd: repoRoot,
  stdio: 'inherit',
});
process.exit(r.status ?? 1);
