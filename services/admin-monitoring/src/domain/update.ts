import { UPDATE_FINISHED_STEP, type UpdateStatus } from '@wb/contracts';

/**
 * The system update's rules (spec §4 System update), free of I/O: what `progress` is, the Russian
 * step names, when a run whose runner went silent counts as interrupted. The runner
 * (update/runner.ts) and the store (store/update.ts) apply them. Names: docs/decisions.md.
 */

/** Before the first restart: the runtime is asked for its plan. */
export const UPDATE_PREPARING_STEP = 'Подготовка обновления';
/** Nothing has ever been started: what the status says before the first update. */
export const UPDATE_IDLE_STEP = 'Обновление не запускалось';
export const UPDATE_FINISHED = UPDATE_FINISHED_STEP;

/** The step name an adapter gives a service's restart ('Перезапуск сервиса boards'). */
export const restartStepName = (service: string): string => `Перезапуск сервиса ${service}`;

/** While step `index` (0-based) of `count` runs: the share of steps already done, 0–99; 100 only once finished. */
export function progressOf(index: number, count: number): number {
  if (count <= 0) return 0;
  return Math.min(99, Math.max(0, Math.floor((index / count) * 100)));
}

/**
 * A running update's runner writes a heartbeat while it works; one silent this long died with its
 * process (a crash, or a restart that was not its own last step), and the run is reported failed so
 * a new one can start. Longer than the slowest single step's silence would be (steps heartbeat too).
 */
export const UPDATE_STALE_MS = 60_000;

export const isStale = (heartbeatAt: Date, now: Date): boolean => now.getTime() - heartbeatAt.getTime() > UPDATE_STALE_MS;

export const UPDATE_INTERRUPTED_ERROR = 'Обновление прервано: служба, которая его выполняла, остановилась';

/** A row of the update table as the status call answers it. */
export interface UpdateRow {
  is_running: boolean;
  current_step: string;
  progress: number;
  error: string | null;
  /** The pool may hand timestamps over as ISO text or as Date. */
  started_at: Date | string;
  finished_at: Date | string | null;
}

const iso = (t: Date | string) => new Date(t).toISOString();

export function statusOf(row: UpdateRow | undefined): UpdateStatus {
  if (!row) return { is_running: false, current_step: UPDATE_IDLE_STEP, progress: 0, started_at: null, finished_at: null };
  return {
    is_running: row.is_running,
    current_step: row.current_step,
    progress: row.progress,
    started_at: iso(row.started_at),
    finished_at: row.finished_at === null ? null : iso(row.finished_at),
    ...(row.error ? { error: row.error } : {}),
  };
}

/** A step's failure as the status shows it: the adapter's Russian reason, cut to a readable length. */
export function stepError(step: string, err: unknown): string {
  const reason = err instanceof Error ? err.message : String(err);
  return `${step}: ${reason}`.slice(0, 500);
}
