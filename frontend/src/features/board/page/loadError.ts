/** What the page does when the board call fails (§2 Load error, §4). Pure: unit-tested. */
import { getErrorCode, getErrorMessage } from '../../../api/errors.ts';

export type LoadFailure = { kind: 'login'; returnTo: string } | { kind: 'denied'; message: string };

export const DENIED_REDIRECT_MS = 2000;

/** Text of a failure that carries no server message (timeout, network). */
function transportText(err: unknown): string | null {
  if (!err || typeof err !== 'object') return null;
  const status = (err as { status?: unknown }).status;
  if (status === 'TIMEOUT_ERROR') return 'Превышено время ожидания ответа сервера';
  if (status === 'FETCH_ERROR') return 'Сервер недоступен';
  return null;
}

/**
 * TOKEN_MISSING while holding a share token means the link alone is not enough: sign in and come
 * back. Anything else (revoked or made-up token, someone else's board, a missing board) is denied.
 */
export function classifyLoadError(err: unknown, opts: { shareToken: string | null; here: string }): LoadFailure {
  if (getErrorCode(err) === 'TOKEN_MISSING' && opts.shareToken) return { kind: 'login', returnTo: opts.here };
  return { kind: 'denied', message: getErrorMessage(err, transportText(err) ?? 'Не удалось загрузить доску') };
}

export const loginPath = (returnTo: string): string => `/login?redirect=${encodeURIComponent(returnTo)}`;
