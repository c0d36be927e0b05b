// Preloaded into every server the realtime benchmark starts (ours and the peers alike, with
// `node --import`): every 250 ms it appends one JSON line to $BENCH_SAMPLE_FILE with the event-loop
// utilisation since the previous line, heap, RSS and the GC time spent meanwhile.
import { appendFileSync } from 'node:fs';
import { performance, PerformanceObserver } from 'node:perf_hooks';

const file = process.env.BENCH_SAMPLE_FILE;
if (file) {
  let gcMs = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcMs += e.duration;
  }).observe({ entryTypes: ['gc'] });
  let last = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const elu = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    const m = process.memoryUsage();
    appendFileSync(file, `${JSON.stringify({ t: Date.now(), elu, heap: m.heapUsed, rss: m.rss, gcMs })}\n`);
    gcMs = 0;
  }, 250);
  timer.unref();
}
