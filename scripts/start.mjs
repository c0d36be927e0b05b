// `npm start`: installs what is missing, builds the SPA if needed, and runs the whole product in
// one process on the embedded default (http://localhost:8080; PORT and DATA_DIR change it).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { buildFrontendIfStale, repoRoot } from './lib/frontend-build.mjs';

if (!existsSync(path.join(repoRoot, 'node_modules', '.package-lock.json'))) {
  console.log('[start] installing dependencies (npm ci)...');
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: repoRoot, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
buildFrontendIfStale();

const child = spawn(process.execPath, ['--import', 'tsx', 'deploy/embedded/main.ts'], {
  cwd: repoRoot,
  stdio: 'inherit',
  env: { ...process.env, DATA_DIR: process.env.DATA_DIR ?? path.join(repoRoot, '.data') },
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
