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

export interface RenderPoolOptions {
  threads: number;
  /** The render threads' niceness (0..19), so they give way to request handling on a busy machine. */
  nice?: number;
  /**
   * Each thread's V8 heap ceiling (old generation), MB: a render past it ends that thread alone
   * (ERR_WORKER_OUT_OF_MEMORY; piscina starts another), not the process. Skia's pixels live outside
   * the heap; the area limit and the pixel budget of pictures bound those.
   */
  maxHeapMb?: number;
  /**
   * A thread that fails outside any task (while it loads, say). Piscina emits that as an 'error'
   * event, which without a listener ends the whole process: in development a Ctrl+C that reached
   * tsx's esbuild while the threads still compiled their sources crashed the product's shutdown.
   */
  onError: (err: unknown) => void;
  /** The thread's entry; tests give one that fails. */
  filename?: URL;
}

export function createRenderPool({ threads, nice = 0, maxHeapMb, onError, filename }: RenderPoolOptions): RenderPool {
  const pool = new Piscina({
    filename: (filename ?? new URL('./worker.mjs', import.meta.url)).href,
    minThreads: threads,
    maxThreads: threads,
    // The gate queues: at most `threads` exports run, each as up to `threads` band tasks, so the
    // tasks beyond the threads always fit here.
    maxQueue: threads * Math.max(2, threads),
    idleTimeout: 60_000,
    workerData: { nice },
    ...(maxHeapMb ? { resourceLimits: { maxOldGenerationSizeMb: maxHeapMb } } : {}),
  });
  pool.on('error', onError);
  // A render past its time is aborted; piscina replaces the thread.
  const run = (task: RenderTask, timeoutMs: number) => pool.run(task, { signal: AbortSignal.timeout(timeoutMs) });
  return {
    threads,
    render: async (task, timeoutMs) => (await run(task, timeoutMs)) as RenderResult,
    renderBand: async (task, timeoutMs) => (await run(task, timeoutMs)) as BandResult,
    close: () => pool.destroy(),
  };
}
