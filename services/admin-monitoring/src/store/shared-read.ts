/**
 * Readers of one key share one read: concurrent callers wait for the read in flight, and callers
 * within `keepMs` after it settled get its answer too. The overview's counters are a few rows, but
 * twenty panels asking at once would otherwise queue twenty queries on a pool of five; an answer
 * is at most `keepMs` plus one query old (docs/decisions.md). A failed read is not kept.
 */
export function sharedReads<T>(opts: { keepMs: number; now?: () => number }): (key: string, read: () => Promise<T>) => Promise<T> {
  const now = opts.now ?? (() => performance.now());
  const entries = new Map<string, { p: Promise<T>; settledAt: number | null }>();
  return (key, read) => {
    const e = entries.get(key);
    if (e && (e.settledAt === null || now() - e.settledAt < opts.keepMs)) return e.p;
    const entry: { p: Promise<T>; settledAt: number | null } = { p: read(), settledAt: null };
    entries.set(key, entry);
    entry.p.then(
      () => {
        entry.settledAt = now();
      },
      () => {
        if (entries.get(key) === entry) entries.delete(key);
      },
    );
    return entry.p;
  };
}
