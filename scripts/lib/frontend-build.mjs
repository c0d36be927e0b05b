// Builds the SPA when its sources are newer than the last build (or there is no build yet).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function newestMtime(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(p)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(p, entry)));
  }
  return newest;
}

export function frontendIsStale() {
  const built = path.join(repoRoot, 'frontend', 'dist', 'index.html');
  if (!existsSync(built)) return true;
  const sources = ['frontend/src', 'frontend/index.html', 'frontend/vite.config.ts', 'frontend/vite', 'frontend/public', 'libs/contracts/src', 'libs/board-model/src'];
  const newest = Math.max(...sources.map((s) => newestMtime(path.join(repoRoot, s))));
  return newest > statSync(built).mtimeMs;
}

export function buildFrontendIfStale({ force = false } = {}) {
  if (!force && !frontendIsStale()) return;
  console.log('[build] building the web app (vite build)...');
  const r = spawnSync('npm', ['run', 'build', '-w', 'frontend'], { cwd: repoRoot, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('frontend build failed');
}
