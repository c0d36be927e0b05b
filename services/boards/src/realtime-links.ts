import type { Logger } from 'pino';
import { internalHeaders } from '@wb/service-kit';
import type { RevokeLinks } from './routes/boards.ts';

const TIMEOUT_MS = 2_000;

/**
 * Tells realtime that share tokens died, and waits until it closed their sockets. Realtime being
 * down must not block the owner: the call is logged and the board.sharing_changed event (outbox)
 * still reaches realtime later.
 */
export function realtimeLinkRevoker(baseUrl: string, internalToken: string | undefined, logger: Logger): RevokeLinks {
  const base = baseUrl.replace(/\/+$/, '');
  return async (boardId, tokens) => {
    try {
      const res = await fetch(`${base}/internal/boards/${encodeURIComponent(boardId)}/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(internalToken ? internalHeaders(internalToken) : {}) },
        body: JSON.stringify({ tokens }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      if (!res.ok) logger.warn({ boardId, status: res.status }, 'realtime refused the link revocation; the event will follow');
    } catch (err) {
      logger.warn({ err, boardId }, 'realtime unreachable for the link revocation; the event will follow');
    }
  };
}
