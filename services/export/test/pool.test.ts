// The render threads run niced (EXPORT_WORKER_NICE), so request handling keeps the CPU it needs.
import { readdirSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { createRenderPool } from '../src/render/pool.ts';
import { fontFiles } from '../src/render/fonts.ts';

/** Niceness of a thread of this process (field 19 of /proc/self/task/<tid>/stat). */
function niceness(tid: string): number {
  const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}
const threadNiceness = () => readdirSync('/proc/self/task').map(niceness);

it('renders in a thread with the configured niceness, the main thread untouched', async () => {
  // Measured before the pool exists: its thread may set its niceness as soon as it starts.
  const before = threadNiceness();
  expect(before.filter((n) => n === 7)).toHaveLength(0);
  const pool = createRenderPool({ threads: 1, nice: 7, onError: (err) => expect.fail(String(err)) });
  try {
    const result = await pool.render(
      {
        format: 'svg',
        board: { objects: {}, arrows: {} },
        area: { x: 0, y: 0, width: 100, height: 100 },
        images: {},
        fonts: fontFiles(),
        maxObjects: 10,
      },
      30_000,
    );
    expect(result.ok).toBe(true);
    // The render thread (and helper threads it starts, which inherit its niceness); never the main thread.
    expect(threadNiceness().filter((n) => n === 7).length).toBeGreaterThan(0);
    expect(niceness(String(process.pid))).toBe(before[0]);
  } finally {
    await pool.close();
  }
});

it('reports a thread that fails while it loads instead of ending the process', async () => {
  const errors: unknown[] = [];
  const failing = createRenderPool({
    threads: 1,
    onError: (err) => errors.push(err),
    filename: new URL('./fixtures/failing-worker.mjs', import.meta.url),
  });
  try {
    await expect.poll(() => errors.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(String(errors[0])).toMatch(/the service was stopped/i);
  } finally {
    await failing.close();
  }
});

it('replaces its threads after the configured number of tasks without refusing the ones still queued', async () => {
  const pool = createRenderPool({ threads: 1, recycleAfter: 2, onError: (err) => expect.fail(String(err)) });
  try {
    const task = {
      format: 'svg' as const,
      board: { objects: {}, arrows: {} },
      area: { x: 0, y: 0, width: 100, height: 100 },
      images: {},
      fonts: fontFiles(),
      maxObjects: 10,
    };
    // Six at once on one thread: the pool is replaced twice while tasks wait in the old one's queue.
    const results = await Promise.all(Array.from({ length: 6 }, () => pool.render(task, 30_000)));
    expect(results.every((r) => r.ok)).toBe(true);
  } finally {
    await pool.close();
  }
});
