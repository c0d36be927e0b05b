// The worker thread's entry: piscina loads this plain module, which hands over the render task.
// In a production build (deploy/build.mjs) task.js sits beside it; in development the thread is
// taught TypeScript (tsx) and loads task.ts. Kept tiny so nothing but the task runs in the thread.
import { existsSync, readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { workerData } from 'node:worker_threads';
import { move, transferableSymbol, valueSymbol } from 'piscina';

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

/** An ArrayBuffer that may be handed over instead of copied: the view's own, not a shared pool's. */
const ownBuffer = (view) =>
  view && view.byteOffset === 0 && view.byteLength === view.buffer.byteLength ? [view.buffer] : [];

// The answer's bytes (a whole file, or a band's deflated rows) are moved to the main thread, not copied.
export default async function run(t) {
  const result = await task.default(t);
  const transfer = ownBuffer(result.bytes ?? result.band?.chunks);
  return transfer.length ? move({ [transferableSymbol]: transfer, [valueSymbol]: result }) : result;
}
