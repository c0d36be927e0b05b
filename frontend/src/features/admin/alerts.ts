/** Spec §8 Admin actions: how the panel reports failures and successes. */
import { getErrorMessage } from '../../api/errors.ts';
import { notify, shownFor } from '../../lib/notify.ts';
import { SPEC_TEXTS } from './specTexts.ts';

/** §9: admin success messages stay 3 s. */
export const ADMIN_SUCCESS_MS = 3_000;

/** A failed admin action: the spec's prefix and the server's error text ('Ошибка сохранения плана: …'). */
export function failWith(prefix: string, err: unknown): void {
  const text = getErrorMessage(err, '');
  notify.error(text ? `${prefix}: ${text}` : prefix);
}

/** Config and extension failures: 'Ошибка:' plus the message. */
export function failPlain(err: unknown): void {
  notify.error(`${SPEC_TEXTS.errorPrefix} ${getErrorMessage(err, 'сервер не ответил')}`);
}

export function succeed(text: string): void {
  notify.success(text, { autoClose: shownFor(ADMIN_SUCCESS_MS) });
}

/** §8: failures of stats, lists and activity are only logged. */
export function logFailure(what: string, err: unknown): void {
  console.warn(`admin: ${what} failed`, err);
}
