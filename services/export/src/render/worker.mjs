// The worker thread's entry: piscina loads this plain module, which teaches the thread TypeScript
// (tsx) and hands over the render task. Kept tiny so nothing but the task runs in the thread.
import { register } from 'tsx/esm/api';

register();
const task = await import('./task.ts');
export default task.default;
