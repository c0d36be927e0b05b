// Preloaded into every server the realtime benchmark starts (ours and the peers alike, with
// `node --import`): every 250 ms it appends one JSON line to $BENCH_SAMPLE_FILE with the event-loop
// utilisation since the previous line, heap, RSS and the GC time spent meanwhile.
// On SIGUSR2 (the harness, around the idle connections) it runs a full garbage collection (the
// server is started with --expose-gc) and appends {kind: 'gc', heapUsed, external, arrayBuffers,
// rss}: live JavaScript memory, a second measure of memory per connection next to RSS growth.
import { appendFileSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import { writeHeapSnapshot } from 'node:v8';

const file = process.env.BENCH_SAMPLE_FILE;
if (file) {
  let gcMs = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcMs += e.duration;
  }).observe({ entryTypes: ['gc'] });
  let last = performance.eventLoopUtilization();
  // How late the loop ran a 1 ms timer: a long task holds every socket's messages that long.
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const elu = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    const m = process.memoryUsage();
    const lagMaxMs = delay.max / 1e6;
    delay.reset();
    appendFileSync(file, `${JSON.stringify({ t: Date.now(), elu, heap: m.heapUsed, rss: m.rss, gcMs, lagMaxMs })}\n`);
    gcMs = 0;
  }, 250);
  timer.unref();
  process.on('SIGUSR2', () => {
    if (typeof globalThis.gc === 'function') {
      // Twice: weak references and finalisers freed by the first are collected by the second.
      globalThis.gc();
      globalThis.gc();
    }
    // BENCH_HEAP_SNAPSHOT=dir: a heap snapshot as well, to see what a connection's bytes are.
    if (process.env.BENCH_HEAP_SNAPSHOT) writeHeapSnapshot(`${process.env.BENCH_HEAP_SNAPSHOT}/${process.pid}-${Date.now()}.heapsnapshot`);
    const m = process.memoryUsage();
    appendFileSync(file, `${JSON.stringify({ t: Date.now(), kind: 'gc', collected: typeof globalThis.gc === 'function', heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers, rss: m.rss })}\n`);
  });
}

// A peer has no SIGTERM handler of its own, so the harness's SIGTERM ended it before V8 wrote the
// profile that `BENCH_SERVER_NODE_ARGS='--cpu-prof …'` asked for. With such a flag, SIGTERM
// becomes a normal exit when nothing else listens (ours shuts down gracefully by itself).
if (process.execArgv.some((a) => a.startsWith('--cpu-prof') || a.startsWith('--heap-prof'))) {
  const exitUnlessHandled = () => {
    if (process.listenerCount('SIGTERM') === 1) process.exit(0);
  };
  process.on('SIGTERM', exitUnlessHandled);
}

// BENCH_HEAP_SAMPLE=dir: V8's sampling heap profiler from 10 s to 30 s after start, written to
// dir/<pid>.heapprofile (DevTools' format). It keeps the allocations no scavenge freed: what got into
// the old generation, alive at the end or freed later by a full GC. Those bytes are what a server's
// scavenges copy and its full GCs mark. BENCH_HEAP_SAMPLE_LIVE=1 keeps only what is still alive at
// 30 s (the lasting growth, e.g. the documents' content).
if (process.env.BENCH_HEAP_SAMPLE) {
  const { Session } = await import('node:inspector');
  const dir = process.env.BENCH_HEAP_SAMPLE;
  const session = new Session();
  session.connect();
  setTimeout(() => {
    const includeObjectsCollectedByMajorGC = process.env.BENCH_HEAP_SAMPLE_LIVE !== '1';
    session.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC, includeObjectsCollectedByMinorGC: false });
    setTimeout(() => {
      session.post('HeapProfiler.stopSampling', (err, r) => {
        if (!err) writeFileSync(`${dir}/${process.pid}.heapprofile`, JSON.stringify(r.profile));
      });
    }, 20_000).unref();
  }, 10_000).unref();
}
