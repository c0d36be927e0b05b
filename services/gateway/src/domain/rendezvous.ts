import { createHash } from 'node:crypto';

/**
 * Rendezvous (highest random weight) hashing: `key` goes to the candidate that scores highest for
 * it. Every gateway instance picks the same one from the same candidates, and when a candidate
 * leaves, only its own keys move (each to its second choice); when it comes back they return.
 */
export function rendezvous<T extends string>(key: string, candidates: readonly T[]): T | undefined {
  let best: T | undefined;
  let bestScore = -1n;
  for (const c of candidates) {
    const score = createHash('sha256').update(c).update('\0').update(key).digest().readBigUInt64BE(0);
    // Ties (practically never) go to the smaller name, so the choice does not depend on list order.
    if (score > bestScore || (score === bestScore && best !== undefined && c < best)) {
      best = c;
      bestScore = score;
    }
  }
  return best;
}

/**
 * The board a realtime path is about, when the path names one: the socket (`/yjs/<boardId>`),
 * its images and the snapshot debugging routes. Force-save and reactions name it in their body
 * (boardOfRealtimeBody); anything else may go to any replica, the relay keeps them all in step.
 */
export function boardOfRealtimePath(path: string): string | undefined {
  const m = /^\/yjs\/images\/([\w-]{1,64})(?:\/|$)/.exec(path) ?? /^\/api\/boards\/([\w-]{1,64})\/debug(?:\/|$)/.exec(path);
  if (m) return m[1];
  const socket = /^\/yjs\/([\w-]{1,64})\/?$/.exec(path);
  return socket && !['images', 'force-save', 'reactions'].includes(socket[1]!) ? socket[1] : undefined;
}

/** Realtime calls whose board is named in the JSON body: `{"boardId": …}`. */
const BOARD_IN_BODY = new Set(['/yjs/force-save', '/yjs/reactions']);
/** Their bodies are a board id and a few short fields; a longer one is not read for routing. */
export const MAX_ROUTED_BODY_BYTES = 16 * 1024;

export function boardInBody(method: string | undefined, path: string): boolean {
  return method === 'POST' && BOARD_IN_BODY.has(path.replace(/\/$/, ''));
}

/** The board id of such a body, or undefined when it names none (the replica answers that). */
export function boardOfRealtimeBody(body: Buffer): string | undefined {
  try {
    const boardId = (JSON.parse(body.toString('utf8')) as { boardId?: unknown } | null)?.boardId;
    return typeof boardId === 'string' && /^[\w-]{1,64}$/.test(boardId) ? boardId : undefined;
  } catch {
    return undefined;
  }
}
