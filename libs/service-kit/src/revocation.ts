/**
 * Revoked sessions, as every token verifier sees them. Access tokens carry their session id (`sid`);
 * logout and password changes revoke sessions in auth, and a token of a revoked session must stop
 * working everywhere at once, not when it expires. Each process keeps the recently revoked ids in
 * memory (a Set lookup per request) and learns new ones from a feed that auth waits on before it
 * answers (NATS JetStream, revocation-feed.ts; in one process the list itself is shared), and as a
 * safety net by asking auth every `intervalMs` (`GET /internal/sessions/revoked?since=`), which
 * answers from an index in one query. Auth itself adds its own revocations the moment it makes them.
 *
 * Only ids revoked within the access-token lifetime matter (older tokens have expired anyway), so
 * the list stays small and each id is forgotten `keepMs` after it was learnt.
 */

/** The answer of auth's `GET /internal/sessions/revoked`. */
export interface RevokedSessionsAnswer {
  sessions: string[];
  /** Pass back as `since` next time. */
  cursor: string;
  /** How long an id must be remembered: the access-token lifetime, in seconds. */
  keepSeconds: number;
}

export type FetchRevoked = (since: string | undefined) => Promise<RevokedSessionsAnswer>;

/**
 * A push source of revocations (NATS JetStream: revocation-feed.ts). `start` resolves once every
 * revocation made before it has been delivered; `deliver` runs synchronously, listeners included,
 * before the source acknowledges a message, which is what lets auth wait for every verifier.
 */
export interface RevocationFeed {
  start(deliver: (sids: string[], keepMs: number) => void): Promise<void>;
  stop(): void;
}

export interface RevocationList {
  isRevoked(sid: string): boolean;
  /** Records ids revoked here (auth) or learnt elsewhere; listeners hear only ids new to the list. */
  add(sids: readonly string[], keepMs?: number): void;
  /** Called with newly revoked ids (realtime closes their sockets). Returns an unsubscribe function. */
  onRevoked(listener: (sids: string[]) => void): () => void;
  /** Asks auth now (tests; also what the timer does). Errors keep the last list and are retried. */
  refresh(): Promise<void>;
  /**
   * Starts polling or the feed (idempotent; the timer does not keep the process alive); resolves after
   * the first answer. A feed that cannot start rejects, and the next call tries again.
   */
  start(): Promise<void>;
  stop(): void;
}

export interface RevocationListOptions {
  fetch?: FetchRevoked;
  /** Revocations pushed to this process (and acknowledged) as they happen; `fetch` then only backs it up. */
  feed?: RevocationFeed;
  intervalMs?: number;
  /** Default memory for ids added without a known keep time: the default access-token lifetime. */
  keepMs?: number;
  onError?: (err: unknown) => void;
}

export const REVOCATION_POLL_MS = 1_000;

export function createRevocationList(opts: RevocationListOptions = {}): RevocationList {
  const until = new Map<string, number>();
  const listeners = new Set<(sids: string[]) => void>();
  let cursor: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | undefined;
  let feeding: Promise<void> | undefined;
  let defaultKeep = opts.keepMs ?? 15 * 60_000;

  const prune = (now: number) => {
    for (const [sid, t] of until) if (t <= now) until.delete(sid);
  };

  const list: RevocationList = {
    isRevoked: (sid) => until.has(sid),
    add(sids, keepMs = defaultKeep) {
      const now = Date.now();
      const fresh: string[] = [];
      for (const sid of sids) {
        if (!until.has(sid)) fresh.push(sid);
        until.set(sid, Math.max(until.get(sid) ?? 0, now + keepMs));
      }
      prune(now);
      if (fresh.length > 0) for (const l of listeners) l(fresh);
    },
    onRevoked(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    refresh() {
      const fetchRevoked = opts.fetch;
      if (!fetchRevoked) return Promise.resolve();
      // One request at a time: a slow auth must not pile up polls.
      inFlight ??= fetchRevoked(cursor)
        .then((answer) => {
          defaultKeep = answer.keepSeconds * 1000;
          cursor = answer.cursor;
          list.add(answer.sessions, defaultKeep);
        })
        .catch((err) => opts.onError?.(err))
        .finally(() => {
          inFlight = undefined;
        });
      return inFlight;
    },
    start() {
      // The poll stays next to a feed as a safety net: a revocation committed but never published
      // (auth killed in between, an admin bootstrap at start) still arrives within one interval.
      let first: Promise<void> = inFlight ?? Promise.resolve();
      if (!timer && opts.fetch) {
        timer = setInterval(() => void list.refresh(), opts.intervalMs ?? REVOCATION_POLL_MS);
        timer.unref();
        first = list.refresh();
      }
      const feed = opts.feed;
      if (!feed) return first;
      feeding ??= feed.start((sids, keepMs) => list.add(sids, keepMs)).catch((err: unknown) => {
        feeding = undefined;
        throw err;
      });
      return Promise.all([feeding, first]).then(() => undefined);
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      opts.feed?.stop();
      feeding = undefined;
    },
  };
  return list;
}

/** Auth's revocation endpoint next to its JWKS: `<auth>/internal/jwks` → `<auth>/internal/sessions/revoked`. */
export function revokedSessionsUrl(jwksUrl: string): URL {
  return new URL('sessions/revoked', jwksUrl);
}

/** A FetchRevoked over HTTP (with the internal credential in `headers`). */
export function fetchRevokedFrom(url: URL, headers: Record<string, string> = {}): FetchRevoked {
  return async (since) => {
    const u = new URL(url);
    if (since) u.searchParams.set('since', since);
    const res = await fetch(u, { headers, signal: AbortSignal.timeout(5_000) });
    if (!res.ok) throw new Error(`revoked sessions: HTTP ${res.status}`);
    return (await res.json()) as RevokedSessionsAnswer;
  };
}
