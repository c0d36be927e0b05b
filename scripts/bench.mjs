// `npm run bench [-- <suite> [args]]`: runs one benchmark suite, or all of them. Each prints its
// figures with the command that made them and the machine they ran on.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { ensureInfra } from './ensure-infra.mjs';
import { buildFrontendIfStale, repoRoot } from './lib/frontend-build.mjs';
import { ensureSupportedNode } from './node-runtime.mjs';

await ensureSupportedNode();

const suites = readdirSync(path.join(repoRoot, 'loadtests'), { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(path.join(repoRoot, 'loadtests', d.name, 'bench.ts')))
  .map((d) => d.name);
const [which, ...rest] = process.argv.slice(2);
if (which && !suites.includes(which)) {
  console.error(`unknown suite "${which}"; available: ${suites.join(', ')}`);
  process.exit(2);
}
// A bare machine has no node_modules, NATS, FerretDB or Chromium yet; the suites need them all.
const problems = ensureInfra();
if (problems.length) {
  for (const p of problems) console.error(`[bench] ${p}`);
  process.exit(1);
}
buildFrontendIfStale();
let failed = 0;
for (const suite of which ? [which] : suites) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join('loadtests', suite, 'bench.ts'), ...rest], {
    cwd: repoRoot,
    stdio: 'inherit',
    // Printed with the figures, so they can be reproduced.
    env: { ...process.env, BENCH_COMMAND: `npm run bench -- ${[suite, ...rest].join(' ')}` },
  });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
