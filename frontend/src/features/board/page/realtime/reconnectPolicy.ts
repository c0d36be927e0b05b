/**
 * What to do when the realtime socket closes (§9 reconnect constants, realtime close codes).
 * Pure: the connection applies the decision, the unit test checks it.
 */
import { RECONNECT_MAX_ATTEMPTS, reconnectDelay } from '@wb/board-model';

export type CloseDecision =
  | { action: 'retry'; delayMs: number }
  | { action: 'refresh-token' }
  | { action: 'reset' }
  | { action: 'denied'; code: number }
  | { action: 'offline' };

/** Close codes the realtime service uses for "you may not see this board" (services/realtime README). */
export const DENIED_CODES: readonly number[] = [4403, 4404, 4410];
export const TOKEN_CODE = 4401;
export const MALFORMED_CODE = 4400;
export const RESET_BY_SERVER_CODE = 4205;

/**
 * `attempt` counts the reconnects already made since the last successful sync (0 for the first).
 * A reset by the server (force-save with clearData) reconnects at once without counting.
 */
export function decideOnClose(code: number, attempt: number): CloseDecision {
  if (DENIED_CODES.includes(code)) return { action: 'denied', code };
  if (code === TOKEN_CODE) return attempt < RECONNECT_MAX_ATTEMPTS ? { action: 'refresh-token' } : { action: 'offline' };
  if (code === MALFORMED_CODE) return { action: 'reset' };
  if (code === RESET_BY_SERVER_CODE) return { action: 'retry', delayMs: 0 };
  // 4409 (too many), 4413/4422 (too big) and everything transient: back off, then give up honestly.
  if (attempt >= RECONNECT_MAX_ATTEMPTS) return { action: 'offline' };
  return { action: 'retry', delayMs: reconnectDelay(attempt) };
}

/** §9: sync errors after which the local copy is thrown away. */
export function criticalSyncError(message: string, critical: readonly string[]): string | null {
  return critical.find((c) => message.includes(c)) ?? null;
}
