/**
 * Spec §4 System update, as a pure decision after each status poll: show the step and progress
 * while it runs, wait (with a health check) while services restart and the status call fails,
 * finish at 'Завершено' (then the page reloads), give up after 5 minutes. Unit-tested.
 */
import { UPDATE_FINISHED_STEP, type UpdateStatus } from '@wb/contracts';

/** §9 Update polling: every 5 s, time-out 300 s, reload after 2 s. */
export const UPDATE_POLL_MS = 5_000;
export const UPDATE_TIMEOUT_MS = 300_000;
export const UPDATE_RELOAD_MS = 2_000;

export type UpdateView =
  | { phase: 'idle' }
  | { phase: 'running'; step: string; progress: number; waiting: boolean }
  | { phase: 'done'; step: string; progress: number }
  | { phase: 'timedOut' }
  | { phase: 'failed'; message: string };

/** What the page does next: poll again after the interval, check health first, reload, or stop. */
export type NextAction = 'poll' | 'health' | 'reload' | 'stop';

export type PollOutcome = { ok: true; status: UpdateStatus } | { ok: false };

export function startedView(status?: Partial<UpdateStatus> | null): UpdateView {
  return {
    phase: 'running',
    step: status?.current_step || '',
    progress: clampProgress(status?.progress ?? 0),
    waiting: false,
  };
}

export function afterPoll(
  view: UpdateView,
  outcome: PollOutcome,
  elapsedMs: number,
): { view: UpdateView; next: NextAction } {
  if (outcome.ok && !outcome.status.is_running && outcome.status.current_step === UPDATE_FINISHED_STEP) {
    return { view: { phase: 'done', step: UPDATE_FINISHED_STEP, progress: 100 }, next: 'reload' };
  }
  if (elapsedMs >= UPDATE_TIMEOUT_MS) return { view: { phase: 'timedOut' }, next: 'stop' };
  const last = view.phase === 'running' ? view : { step: '', progress: 0 };
  if (!outcome.ok) {
    // The status call itself restarts with the services: keep the last step, say we are waiting.
    return {
      view: { phase: 'running', step: last.step, progress: last.progress, waiting: true },
      next: 'health',
    };
  }
  const s = outcome.status;
  if (s.is_running) {
    return {
      view: { phase: 'running', step: s.current_step, progress: clampProgress(s.progress), waiting: false },
      next: 'poll',
    };
  }
  if (s.error) return { view: { phase: 'failed', message: s.error }, next: 'stop' };
  // Not running, not finished, no error: the start has not shown up yet; keep watching until the time-out.
  return {
    view: { phase: 'running', step: last.step, progress: last.progress, waiting: false },
    next: 'poll',
  };
}

function clampProgress(p: number): number {
  return Number.isFinite(p) ? Math.min(100, Math.max(0, Math.round(p))) : 0;
}
