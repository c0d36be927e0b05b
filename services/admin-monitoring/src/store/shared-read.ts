/**
 * Concurrent readers of one key share one in-flight read: the overview's counters are a few rows,
 * but twenty panels asking at once would otherwise queue twenty queries on a pool of five. Nothing
 * is kept once the read settles, so a request that starts after a change committed never gets an
 * answer read before it; one arriving while a read is running gets that read's answer.
 */
export function sharedReads<T>(): (key: string, read: () => Promise<T>) => Promise<T> {
  const running = new Map<string, Promise<T>>();
  return (key, read) => {
    let p = running.get(key);
    if (!p) {
      p = read().finally(() => running.delete(key));
      running.set(key, p);
    }
    return p;
  };
}
