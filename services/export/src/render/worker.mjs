// The worker thread's entry: piscina loads this plain module, which hands over the render task.
// In a production build (deploy/build.mjs) task.js sits beside it; in development the thread is
// taught TypeScript (tsx) and loads task.ts. Kept tiny so nothing but the task runs in the thread.
import { existsSync } from 'node:fs';

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
