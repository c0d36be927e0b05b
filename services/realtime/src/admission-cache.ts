/**
 * Admission without a look-up per socket: a burst of connections to one board asks boards once per
 * (board, user, share token) and verifies each access token once. Answers live for a few seconds;
 * a revocation (internal call or sharing event) forgets the board's answers at once, and a
 * look-up that was already running when that happened is not kept.
 */
import type { BoardAccessAnswer } from '@wb/contracts';
import type { TokenVerifier } from '@wb/service-kit';
import type { BoardAccessClient } from './access.ts';

const MAX_BOARDS = 20_000;

interface Cached {
  at: number;
  answer: Promise<BoardAccessAnswer>;
}

export interface CachedAccess extends BoardAccessClient {
  /** Forgets every answer about the board (its links or sharing changed). */
  invalidate(boardId: string): void;
}

export function cacheBoardAccess(inner: BoardAccessClient, ttlMs: number, now: () => number = Date.now): CachedAccess {
  const boards = new Map<string, Map<string, Cached>>();
  const generation = new Map<string, number>();

  return {
    access(boardId, who) {
      const key = `${who.userId ?? ''}\u0000${who.shareToken ?? ''}`;
      let perBoard = boards.get(boardId);
      const hit = perBoard?.get(key);
      if (hit && now() - hit.at < ttlMs) return hit.answer;
      if (!perBoard) {
        if (boards.size >= MAX_BOARDS) boards.delete(boards.keys().next().value!);
        boards.set(boardId, (perBoard = new Map()));
      }
      const gen = generation.get(boardId) ?? 0;
      const answer = inner.access(boardId, who);
      const entry: Cached = { at: now(), answer };
      perBoard.set(key, entry);
      // Failures are not remembered; neither is an answer that a revocation overtook.
      answer.then(
        () => {
          if ((generation.get(boardId) ?? 0) !== gen) boards.get(boardId)?.delete(key);
        },
        () => {
          if (boards.get(boardId)?.get(key) === entry) boards.get(boardId)?.delete(key);
        },
      );
      return answer;
    },
    invalidate(boardId) {
      boards.delete(boardId);
      generation.set(boardId, (generation.get(boardId) ?? 0) + 1);
    },
  };
}

/** One signature check per token however many sockets present it at once (the kit caches results). */
export function coalesceVerifier(inner: TokenVerifier): TokenVerifier {
  const inFlight = new Map<string, ReturnType<TokenVerifier['verify']>>();
  return {
    verify(token) {
      let p = inFlight.get(token);
      if (!p) {
        p = inner.verify(token);
        inFlight.set(token, p);
        const done = () => inFlight.delete(token);
        p.then(done, done);
      }
      return p;
    },
  };
}
