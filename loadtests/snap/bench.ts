/**
 * Snapping on a crowded view (issue 35 item 5): what a drag costs with N objects on screen — the
 * snap index built once when the drag starts, then one snapMove per pointer move (the worst case:
 * every move snaps, so every move also scans the boxes for its guide's extent). Pure board-model
 * code, as the canvas runs it; no browser.
 *
 *   npm run bench -- snap [--sizes 1000,10000,50000] [--moves 5000] [--runs 3]
 */
import os from 'node:os';
import { snapIndex, snapMove, type Bounds } from '@wb/board-model';
import { commandLine, machineInfo } from '../lib/harness.ts';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const sizes = arg('sizes', '1000,10000,50000').split(',').map(Number);
const moves = Number(arg('moves', '5000'));
const runs = Number(arg('runs', '3'));

/** A grid of sticky-sized boxes with uneven spacing, as a dense board looks. */
const boxes = (n: number): Bounds[] =>
  Array.from({ length: n }, (_, i) => ({ x: (i % 100) * 137.3, y: Math.floor(i / 100) * 91.7, width: 120, height: 80 }));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(`snap bench — ${machineInfo()}, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
for (const n of sizes) {
  const list = boxes(n);
  const builds: number[] = [];
  const perMove: number[] = [];
  let snapped = 0;
  for (let r = 0; r < runs; r++) {
    let t = performance.now();
    const index = snapIndex(list);
    builds.push(performance.now() - t);
    t = performance.now();
    snapped = 0;
    for (let i = 0; i < moves; i++) {
      const res = snapMove({ x: i * 1.37, y: i * 0.91, width: 120, height: 80 }, index, 6);
      if (res.guides.length > 0) snapped++;
    }
    perMove.push(((performance.now() - t) / moves) * 1000);
  }
  console.log(
    `${n} objects in view: index ${median(builds).toFixed(1)} ms once per drag, ${median(perMove).toFixed(1)} µs per pointer move ` +
      `(median of ${runs}; ${snapped}/${moves} moves snapped)`,
  );
}
console.log(`command: ${commandLine()}`);
