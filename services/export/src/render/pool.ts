/** The rendering threads (piscina). The gate in front decides who may use them. */
import { Piscina } from 'piscina';
import type { RenderResult, RenderTask } from './task.ts';

export interface RenderPool {
  render(task: RenderTask, timeoutMs: number): Promise<RenderResult>;
  close(): Promise<void>;
}

/** `nice`: the render threads' niceness (0..19), so they give way to request handling on a busy machine. */
export function createRenderPool(threads: number, nice = 0): RenderPool {
  const pool = new Piscina({
    filename: new URL('./worker.mjs', import.meta.url).href,
    minThreads: threads,
    maxThreads: threads,
    // The gate queues; a task reaching piscina always has a thread.
    maxQueue: threads * 2,
    idleTimeout: 60_000,
    workerData: { nice },
  });
  return {
    async render(task, timeoutMs) {
      // A render past its time is aborted; piscina replaces the thread.
      return (await pool.run(task, { signal: AbortSignal.timeout(timeoutMs) })) as RenderResult;
    },
    close: () => pool.destroy(),
  };
}
