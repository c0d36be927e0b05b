/**
 * Revoked sessions, as every token verifier sees them. Access tokens carry their session id (`sid`);
 * logout and password changes revoke sessions in auth, and a token of a revoked session must stop
 * working everywhere at once, not when it expires. Each process keeps the recently revoked ids in
 * memory (a Set lookup per request) and learns new ones by asking auth every `intervalMs`
 * (`GET /internal/sessions/revoked?since=`), which answers from an index in one query. Auth itself
 * adds its own revocations the moment it makes them.
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

export interface RevocationList {
  isRevoked(sid: string): boolean;
  /** Records ids revoked here (auth) or learnt elsewhere; listeners hear only ids new to the list. */
  add(sids: readonly string[], keepMs?: number): void;
  /** Called with newly revoked ids (realtime closes their sockets). Returns an unsubscribe function. */
  onRevoked(listener: (sids: string[]) => void): () => void;
  /** Asks auth now (tests; also what the timer does). Errors keep the last list and are retried. */
  refresh(): Promise<void>;
  /** Starts polling (idempotent; the timer does not keep the process alive); resolves after the first answer. */
  start(): Promise<void>;
  stop(): void;
}

export interface RevocationListOptions {
  fetch?: FetchRevoked;
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
      if (timer || !opts.fetch) return inFlight ?? Promise.resolve();
      timer = setInterval(() => void list.refresh(), opts.intervalMs ?? REVOCATION_POLL_MS);
      timer.unref();
      return list.refresh();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
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
