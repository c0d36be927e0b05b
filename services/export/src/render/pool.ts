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
  /**
   * After this many tasks the threads are replaced (0: never): the old ones finish what they run and
   * end, and their memory with them. @napi-rs/canvas's native memory outlives a render in its thread
   * (about 40 MB an export of 3,500 × 2,800 was still held after 16 exports, measured); ending the
   * threads gave it back.
   */
  recycleAfter?: number;
  /** The thread's entry; tests give one that fails. */
  filename?: URL;
}

export function createRenderPool(opts: RenderPoolOptions): RenderPool {
  const { threads, recycleAfter = 0, onError } = opts;
  let pool = piscina(opts);
  // Tasks each pool has in hand; a replaced pool ends when its last one is done (piscina's close()
  // would refuse the ones still queued).
  const inHand = new Map<Piscina, number>([[pool, 0]]);
  let tasks = 0;
  const retire = (p: Piscina) => {
    if (p === pool || inHand.get(p) !== 0) return;
    inHand.delete(p);
    p.destroy().catch(onError);
  };
  // A render past its time is aborted; piscina replaces the thread.
  async function run(task: RenderTask, timeoutMs: number): Promise<unknown> {
    const current = pool;
    inHand.set(current, inHand.get(current)! + 1);
    try {
      return await current.run(task, { signal: AbortSignal.timeout(timeoutMs) });
    } finally {
      inHand.set(current, inHand.get(current)! - 1);
      if (recycleAfter > 0 && current === pool && ++tasks >= recycleAfter) {
        tasks = 0;
        pool = piscina(opts);
        inHand.set(pool, 0);
      }
      retire(current);
    }
  }
  return {
    threads,
    render: async (task, timeoutMs) => (await run(task, timeoutMs)) as RenderResult,
    renderBand: async (task, timeoutMs) => (await run(task, timeoutMs)) as BandResult,
    close: async () => {
      await Promise.all([...inHand.keys()].map((p) => p.destroy()));
    },
  };
}

function piscina({ threads, nice = 0, maxHeapMb, onError, filename }: RenderPoolOptions): Piscina {
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
  return pool;
}
