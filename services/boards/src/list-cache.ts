import { promClient, type Registry } from '@wb/service-kit';

/**
 * Recent answers of the dashboard's read calls (GET /boards pages, GET /folders), each stored with
 * the owner's list version it was built at (migration 009). An answer is served again only while
 * PostgreSQL still reports that version, so a write through any replica ends every replica's
 * copy; what this saves is building the answer (for a 500-board page, 4 ms of PostgreSQL and the
 * encoding of 330 KB), not the round trip that reads the version.
 *
 * Bounded by bytes, least recently used first out. Bodies are kept encoded, ready to send.
 */
export class ListCache {
  private readonly entries = new Map<string, { version: string; body: Buffer }>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(private readonly maxBytes: number) {}

  /** Whether anything is kept for this owner and call (if not, asking for the version is wasted). */
  has(owner: string, call: string): boolean {
    return this.entries.has(`${owner}\n${call}`);
  }

  get(owner: string, call: string, version: string): Buffer | undefined {
    const key = `${owner}\n${call}`;
    const e = this.entries.get(key);
    if (!e || e.version !== version) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    // Re-inserted: Map order is the eviction order.
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.body;
  }

  set(owner: string, call: string, version: string, body: Buffer): void {
    const key = `${owner}\n${call}`;
    this.drop(key);
    if (body.length > this.maxBytes / 4) return;
    this.entries.set(key, { version, body });
    this.bytes += body.length;
    for (const [k] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(k);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  get bytesKept(): number {
    return this.bytes;
  }

  private drop(key: string) {
    const old = this.entries.get(key);
    if (!old) return;
    this.bytes -= old.body.length;
    this.entries.delete(key);
  }
}

/** Hit ratio and size for dashboards: boards_list_cache_{hits,misses}_total, boards_list_cache_bytes. */
export function listCacheMetrics(registry: Registry, cache: ListCache) {
  const registers = [registry];
  new promClient.Counter({
    name: 'boards_list_cache_hits_total',
    help: 'Dashboard answers served again at an unchanged list version',
    registers,
    collect() {
      this.reset();
      this.inc(cache.hits);
    },
  });
  new promClient.Counter({
    name: 'boards_list_cache_misses_total',
    help: 'Dashboard answers built because the kept one was older than the list version',
    registers,
    collect() {
      this.reset();
      this.inc(cache.misses);
    },
  });
  new promClient.Gauge({
    name: 'boards_list_cache_bytes',
    help: 'Bytes of dashboard answers kept',
    registers,
    collect() {
      this.set(cache.bytesKept);
    },
  });
}
