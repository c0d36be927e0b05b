// The worker thread's entry: piscina loads this plain module, which hands over the render task.
// In a production build (deploy/build.mjs) task.js sits beside it; in development the thread is
// taught TypeScript (tsx) and loads task.ts. Kept tiny so nothing but the task runs in the thread.
import { existsSync, readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { workerData } from 'node:worker_threads';

// Renders yield the CPU to the services' event loops: on Linux setpriority() on a thread id niceness
// only this thread, so a request like /api/auth/verify keeps its latency while exports run.
if (workerData?.nice) {
  try {
    setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), workerData.nice);
  } catch {
    // No /proc (not Linux) or not allowed: renders run at normal priority.
  }
}

const compiled = new URL('./task.js', import.meta.url);
let task;
if (existsSync(compiled)) {
  task = await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  task = await import('./task.ts');
}
export default task.default;
