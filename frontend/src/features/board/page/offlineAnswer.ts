/**
 * The board answer when the network is gone (issue 35 item 7): a signed-in user's last answer for
 * this board, kept on the device (features/auth/deviceData.ts), so a board reloaded offline opens from
 * its IndexedDB copy in the footer's 'Нет соединения' state instead of the load-error panel. Link
 * visitors (their access is the link's) and any answer but "no network" keep §2's load error.
 */
import { useEffect, useRef } from 'react';
import { rememberBoardAnswer, rememberedBoardAnswer } from '../../auth/deviceData.ts';
import type { BoardPageAnswer } from './boardPageApi.ts';

interface BoardQuery {
  data?: BoardPageAnswer;
  error?: unknown;
  isError: boolean;
  refetch(): unknown;
}

const noNetwork = (err: unknown): boolean => (err as { status?: unknown } | undefined)?.status === 'FETCH_ERROR';

export function useOfflineAnswer(boardId: string, userId: string | null, viaLink: boolean, query: BoardQuery): BoardPageAnswer | null {
  const kept = !viaLink && userId !== null;
  useEffect(() => {
    if (kept && query.data) rememberBoardAnswer(boardId, userId, query.data);
  }, [kept, boardId, userId, query.data]);
  // Held through the refetch that follows (no load stage between the kept answer and the real one),
  // dropped by the real answer or by any refusal.
  const held = useRef<{ boardId: string; answer: BoardPageAnswer } | null>(null);
  if (held.current?.boardId !== boardId || query.data || (query.isError && !noNetwork(query.error))) held.current = null;
  if (!held.current && kept && query.isError && noNetwork(query.error)) {
    const answer = rememberedBoardAnswer<BoardPageAnswer>(boardId, userId);
    if (answer) held.current = { boardId, answer };
  }
  const fallback = held.current?.answer ?? null;
  // Back online: the real answer replaces the kept one.
  const { refetch } = query;
  useEffect(() => {
    if (!fallback) return;
    const online = () => void refetch();
    window.addEventListener('online', online);
    return () => window.removeEventListener('online', online);
  }, [fallback, refetch]);
  return fallback;
}
