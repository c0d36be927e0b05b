/**
 * Readers of one key share reads. An answer read less than `keepMs` ago is answered as it is; one
 * less than twice that old is answered too while a new read runs in the background (so a burst of
 * panels never waits for the refresh); an older one, or none, waits for a read, which concurrent
 * callers share. The overview's counters are a few rows, but twenty panels asking at once would
 * otherwise queue twenty queries on a pool of five. An answer is thus at most 2 × keepMs old, plus
 * the read's own time when it had to wait (docs/decisions.md). A failed read is not kept.
 */
export function sharedReads<T>(opts: { keepMs: number; now?: () => number }): (key: string, read: () => Promise<T>) => Promise<T> {
  const now = opts.now ?? (() => performance.now());
  const entries = new Map<string, { value?: { v: T; at: number }; running?: Promise<T> }>();
  return (key, read) => {
    let e = entries.get(key);
    if (!e) entries.set(key, (e = {}));
    const entry = e;
    const age = entry.value ? now() - entry.value.at : Infinity;
    if (age < opts.keepMs) return Promise.resolve(entry.value!.v);
    if (!entry.running) {
      const started = now();
      entry.running = read().then(
        (v) => {
          entry.value = { v, at: started };
          entry.running = undefined;
          return v;
        },
        (err: unknown) => {
          entry.running = undefined;
          throw err;
        },
      );
      // A background refresh may fail with nobody waiting; the next caller who waits sees it.
      entry.running.catch(() => {});
    }
    return age < 2 * opts.keepMs ? Promise.resolve(entry.value!.v) : entry.running;
  };
}
