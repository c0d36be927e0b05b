/** The rendering threads (piscina). The gate in front decides who may use them. */
import { Piscina } from 'piscina';
import type { BandResult, BandTask, RenderResult, RenderTask } from './task.ts';

export interface RenderPool {
  render(task: RenderTask, timeoutMs: number): Promise<RenderResult>;
  /** One band of a PNG (bands.ts); the caller runs the bands at once and joins them. */
  renderBand(task: BandTask, timeoutMs: number): Promise<BandResult>;
  readonly threads: number;
  close(): Promise<void>;
}

/** `nice`: the render threads' niceness (0..19), so they give way to request handling on a busy machine. */
export function createRenderPool(threads: number, nice = 0): RenderPool {
  const pool = new Piscina({
    filename: new URL('./worker.mjs', import.meta.url).href,
    minThreads: threads,
    maxThreads: threads,
    // The gate queues: at most `threads` exports run, each as up to `threads` band tasks, so the
    // tasks beyond the threads always fit here.
    maxQueue: threads * Math.max(2, threads),
    idleTimeout: 60_000,
    workerData: { nice },
  });
  // A render past its time is aborted; piscina replaces the thread.
  const run = (task: RenderTask, timeoutMs: number) => pool.run(task, { signal: AbortSignal.timeout(timeoutMs) });
  return {
    threads,
    render: async (task, timeoutMs) => (await run(task, timeoutMs)) as RenderResult,
    renderBand: async (task, timeoutMs) => (await run(task, timeoutMs)) as BandResult,
    close: () => pool.destroy(),
  };
}
