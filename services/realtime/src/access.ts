/**
 * The one synchronous dependency: boards decides a user's or share token's role on a board
 * (POST /internal/boards/{id}/access).
 */
import { z } from 'zod';
import type { BoardAccessAnswer } from '@wb/contracts';

const AccessAnswer = z.object({
  role: z.enum(['owner', 'editor', 'viewer', 'guest', 'none']),
  board: z.object({ id: z.string(), owner_id: z.string(), title: z.string() }).nullable(),
});

export interface BoardAccessClient {
  access(boardId: string, who: { userId?: string; shareToken?: string }): Promise<BoardAccessAnswer>;
}

export class AccessCheckFailed extends Error {}

/** `internalToken` is the shared secret boards' /internal/* checks (header x-internal-token). */
export function createBoardAccessClient(baseUrl: string, timeoutMs = 5_000, opts: { internalToken?: string } = {}): BoardAccessClient {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    async access(boardId, who) {
      let res: Response;
      try {
        res = await fetch(`${base}/internal/boards/${encodeURIComponent(boardId)}/access`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(opts.internalToken ? { 'x-internal-token': opts.internalToken } : {}) },
          body: JSON.stringify(who),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        throw new AccessCheckFailed(`boards unreachable: ${(err as Error).message}`);
      }
      // Ids that are not UUIDs and unknown boards both come back as "no such board".
      if (res.status === 404) return { role: 'none', board: null };
      if (!res.ok) throw new AccessCheckFailed(`boards answered ${res.status}`);
      const parsed = AccessAnswer.safeParse(await res.json().catch(() => null));
      if (!parsed.success) throw new AccessCheckFailed('boards answered something unexpected');
      return parsed.data;
    },
  };
}
