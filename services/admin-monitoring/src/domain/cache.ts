/**
 * The `cached` / `cacheTime` rule of spec §3 for the system and container data: a fresh read is
 * kept `ttlMs`; while it is fresh it is served with `cached: true`. Concurrent calls that find no
 * fresh value share one read (single flight), so a dashboard opened by several admins at once costs
 * one walk of the runtime, not one each. A failed read is not kept (nor an answer `keep` refuses). No I/O: `read` and `now` are given.
 */
export interface Cached<T> {
  value: T;
  cached: boolean;
  /** When the value was read. */
  at: Date;
}

export interface ReadCache<T> {
  get(): Promise<Cached<T>>;
  /** Forgets the kept value; a read in flight still answers its callers but is not kept. */
  drop(): void;
}

export function readCache<T>(
  read: () => Promise<T>,
  ttlMs: number,
  opts: { now?: () => number; /** A value that says the read failed (an `error` answer) is served once, not kept. */ keep?: (value: T) => boolean } = {},
): ReadCache<T> {
  const now = opts.now ?? Date.now;
  const keep = opts.keep ?? (() => true);
  let kept: { value: T; at: number } | undefined;
  let inFlight: Promise<{ value: T; at: number }> | undefined;
  let generation = 0;
  return {
    async get() {
      if (kept && now() - kept.at < ttlMs) return { value: kept.value, cached: true, at: new Date(kept.at) };
      if (!inFlight) {
        const gen = generation;
        const p = read().then((value) => {
          const entry = { value, at: now() };
          if (gen === generation && keep(value)) kept = entry;
          return entry;
        });
        inFlight = p;
        const clear = () => {
          if (inFlight === p) inFlight = undefined;
        };
        p.then(clear, clear);
      }
      const entry = await inFlight;
      return { value: entry.value, cached: false, at: new Date(entry.at) };
    },
    drop() {
      kept = undefined;
      inFlight = undefined;
      generation++;
    },
  };
}
