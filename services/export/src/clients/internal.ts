/**
 * The export's synchronous reads (DESIGN.md: "export asks realtime for a board's current state"):
 * boards for the caller's role, title and background; realtime for the live document and the
 * board's own images. Only these fixed internal addresses are ever called: an image `src` is never
 * fetched, only looked up by hash in the board's image store.
 */
import { z } from 'zod';
import type { BoardSnapshot } from '@wb/board-model';
import { appError, internalHeaders } from '@wb/service-kit';

const AccessAnswer = z.object({
  role: z.enum(['owner', 'editor', 'viewer', 'guest', 'none']),
  board: z
    .object({ id: z.string(), owner_id: z.string(), title: z.string(), background: z.string().optional() })
    .nullable(),
});
export type AccessAnswer = z.infer<typeof AccessAnswer>;

const State = z.object({ objects: z.array(z.unknown()), arrows: z.array(z.unknown()) });

export interface InternalClients {
  access(boardId: string, userId: string): Promise<AccessAnswer>;
  state(boardId: string): Promise<BoardSnapshot>;
  /** The image's bytes and type, or null when this board has no such image. */
  image(boardId: string, hash: string): Promise<{ mime: string; bytes: Buffer } | null>;
}

export function createInternalClients(opts: {
  boardsUrl: string;
  realtimeUrl: string;
  internalToken?: string;
  timeoutMs?: number;
}): InternalClients {
  const headers = opts.internalToken ? internalHeaders(opts.internalToken) : {};
  const timeout = opts.timeoutMs ?? 10_000;
  const base = (u: string) => u.replace(/\/+$/, '');

  async function call(url: string, init: RequestInit = {}): Promise<Response> {
    try {
      return await fetch(url, {
        ...init,
        headers: { ...headers, ...init.headers },
        signal: AbortSignal.timeout(timeout),
      });
    } catch {
      throw appError('SERVICE_UNAVAILABLE');
    }
  }

  return {
    async access(boardId, userId) {
      const res = await call(
        `${base(opts.boardsUrl)}/internal/boards/${encodeURIComponent(boardId)}/access`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ userId }),
        },
      );
      if (res.status === 404) return { role: 'none', board: null };
      if (!res.ok) throw appError('SERVICE_UNAVAILABLE');
      const parsed = AccessAnswer.safeParse(await res.json().catch(() => null));
      if (!parsed.success) throw appError('SERVICE_UNAVAILABLE');
      return parsed.data;
    },
    async state(boardId) {
      const res = await call(
        `${base(opts.realtimeUrl)}/internal/boards/${encodeURIComponent(boardId)}/state?format=json`,
      );
      if (!res.ok) throw appError('SERVICE_UNAVAILABLE');
      const parsed = State.safeParse(await res.json().catch(() => null));
      if (!parsed.success) throw appError('SERVICE_UNAVAILABLE');
      return parsed.data;
    },
    async image(boardId, hash) {
      const res = await call(
        `${base(opts.realtimeUrl)}/internal/boards/${encodeURIComponent(boardId)}/images/${encodeURIComponent(hash)}`,
      );
      if (res.status === 404) return null;
      if (!res.ok) throw appError('SERVICE_UNAVAILABLE');
      return { mime: res.headers.get('content-type') ?? '', bytes: Buffer.from(await res.arrayBuffer()) };
    },
  };
}
