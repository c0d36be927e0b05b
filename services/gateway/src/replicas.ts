import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from '@wb/service-kit';
import { boardOfRealtimePath, rendezvous } from './domain/rendezvous.ts';

export interface ReplicaSetOptions {
  /**
   * Base URLs of the realtime replicas. A host name that resolves to several addresses (a
   * Kubernetes headless Service) stands for one replica per address, looked up again every
   * `resolveEveryMs`.
   */
  urls: string[];
  logger: Logger;
  /** Sent with the /ready probes (the internal credential). */
  headers?: Record<string, string>;
  probeEveryMs?: number;
  resolveEveryMs?: number;
  /** How long a replica that refused a connection is passed over, unless a probe finds it ready sooner. */
  downForMs?: number;
  /** How long a /ready probe may take. */
  probeTimeoutMs?: number;
}

/** Probes in a row that got no answer at all before a replica's open sockets are given up. */
const SILENT_PROBES_TO_DROP = 2;

/**
 * The realtime replicas one gateway sends sockets to, with which of them answer. Each board's
 * sockets go to one replica (rendezvous hashing on the board id), so its updates reach its other
 * clients without crossing NATS; the relay between replicas is left for the boards caught on two
 * of them (a replica starting, stopping or failing, gateways that disagree for a moment).
 */
export class ReplicaSet {
  private replicas: string[] = [];
  private readonly downUntil = new Map<string, number>();
  private next = 0;
  private timers: NodeJS.Timeout[] = [];
  /** Probes in a row each replica did not answer at all (a 503 is an answer). */
  private readonly silent = new Map<string, number>();
  /** Client sockets whose upgrade each replica answered, while they are open. */
  private readonly sockets = new Map<string, Set<Duplex>>();

  constructor(private readonly opts: ReplicaSetOptions) {
    // Until the first look-up ends, the URLs as written (an address that resolves to itself).
    this.replicas = [...new Set(opts.urls.map((u) => new URL(u).origin))].sort();
  }

  async start(): Promise<void> {
    await this.resolve();
    await this.probe();
    this.timers = [
      setInterval(() => void this.resolve(), this.opts.resolveEveryMs ?? 5_000),
      setInterval(() => void this.probe(), this.opts.probeEveryMs ?? 2_000),
    ];
    for (const t of this.timers) t.unref();
  }

  stop(): void {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
  }

  /** Replicas not known to be down; all of them when none is (better a refused socket than none tried). */
  live(now = Date.now()): string[] {
    const up = this.replicas.filter((r) => (this.downUntil.get(r) ?? 0) <= now);
    return up.length > 0 ? up : this.replicas;
  }

  /** Each known replica and whether it is passed over now. */
  states(now = Date.now()): Array<{ url: string; up: boolean }> {
    return this.replicas.map((url) => ({ url, up: (this.downUntil.get(url) ?? 0) <= now }));
  }

  /** Where a request for `path` goes: its board's replica, or the next one in turn. */
  targetFor(path: string, board = boardOfRealtimePath(path)): string | undefined {
    const live = this.live();
    if (board !== undefined) return rendezvous(board, live);
    return live[this.next++ % live.length];
  }

  /**
   * `socket` is connected through to `url`. Should that replica stop answering altogether (a hung
   * or stopped process: nothing comes through, and the y-websocket provider notices only after
   * 30 s of silence), the gateway closes it, and its provider reconnects to the board's next replica.
   */
  track(url: string, socket: Duplex): void {
    const origin = new URL(url).origin;
    let set = this.sockets.get(origin);
    if (!set) this.sockets.set(origin, (set = new Set()));
    set.add(socket);
    socket.once('close', () => set.delete(socket));
  }

  /** A connection to `url` failed: its boards go to their second choice for a while. */
  failed(url: string): void {
    const origin = new URL(url).origin;
    if (!this.replicas.includes(origin)) return;
    if ((this.downUntil.get(origin) ?? 0) <= Date.now()) this.opts.logger.warn({ replica: origin }, 'realtime replica unreachable; its boards go to the others');
    this.downUntil.set(origin, Date.now() + (this.opts.downForMs ?? 5_000));
  }

  private async resolve(): Promise<void> {
    const found = new Set<string>();
    for (const raw of this.opts.urls) {
      const url = new URL(raw);
      const host = url.hostname.replace(/^\[|\]$/g, '');
      if (isIP(host) || host === 'localhost') {
        found.add(url.origin);
        continue;
      }
      try {
        for (const { address, family } of await lookup(host, { all: true })) {
          const u = new URL(url.origin);
          u.hostname = family === 6 ? `[${address}]` : address;
          found.add(u.origin);
        }
      } catch (err) {
        // Keep what the last look-up found: a DNS hiccup must not move every board.
        this.opts.logger.warn({ err: (err as Error).message, host }, 'realtime replicas look-up failed');
        for (const r of this.replicas) if (new URL(r).port === url.port) found.add(r);
      }
    }
    const next = [...found].sort();
    if (next.join() !== this.replicas.join()) this.opts.logger.info({ replicas: next }, 'realtime replicas');
    this.replicas = next;
  }

  /**
   * Asks each replica's /ready: one that answers 200 is up again at once, one that does not is
   * passed over. One that answers nothing twice in a row has its open sockets closed too; one that
   * answers 503 keeps them (it is alive: draining, or waiting for a store, and says so to its clients).
   */
  private async probe(): Promise<void> {
    await Promise.all(
      this.replicas.map(async (r) => {
        try {
          const res = await fetch(new URL('/ready', r), { headers: this.opts.headers, signal: AbortSignal.timeout(this.opts.probeTimeoutMs ?? 1_000) });
          await res.body?.cancel();
          this.silent.delete(r);
          if (res.ok) this.downUntil.delete(r);
          else this.failed(r);
        } catch {
          this.failed(r);
          const misses = (this.silent.get(r) ?? 0) + 1;
          this.silent.set(r, misses);
          const open = this.sockets.get(r);
          if (misses >= SILENT_PROBES_TO_DROP && open && open.size > 0) {
            this.opts.logger.warn({ replica: r, sockets: open.size }, 'realtime replica answers nothing; closing its sockets so their clients reconnect elsewhere');
            for (const socket of open) socket.destroy();
            open.clear();
          }
        }
      }),
    );
  }
}
