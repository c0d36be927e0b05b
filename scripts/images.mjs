#!/usr/bin/env node
// `npm run images [-- <service>...]`: installs what is missing (the supported Node, npm packages,
// Debian's Docker engine and debootstrap), then builds one image per service
// (deploy/images/build.ts) and prints each one's size above the shared base.
import { spawnSync } from 'node:child_process';
import { ensureDocker } from './cluster-tools.mjs';
import { ensureNodeModules, repoRoot } from './ensure-infra.mjs';
import { ensureSupportedNode } from './node-runtime.mjs';

await ensureSupportedNode();
const problem = ensureNodeModules();
if (problem) {
  console.error(`[images] ${problem}`);
  process.exit(1);
}
ensureDocker();
const r = spawnSync(process.execPath, ['--import', 'tsx', 'deploy/images/build.ts', ...process.argv.slice(2)], {
  cwd: repoRoot,
  stdio: 'inherit',
});
process.exit(r.status ?? 1);
