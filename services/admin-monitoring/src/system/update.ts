import { withTransaction, type Pool, type PoolClient } from '@wb/db';
import { appError, type Logger } from '@wb/service-kit';
import { progressOf, stepError, UPDATE_PREPARING_STEP } from '../domain/update.ts';
import type { ContainerRuntime } from '../runtime/index.ts';
import { endStaleUpdates, failUpdate, finishSelfRestarts, finishUpdate, heartbeat, insertRunningUpdate, setStep } from '../store/update.ts';

const HEARTBEAT_MS = 5_000;

export interface UpdateRunner {
  /**
   * Starts a run unless one is running (UPDATE_ALREADY_RUNNING); `inTransaction` runs inside the
   * transaction that claims the running slot (the audit record), so both happen or neither.
   */
  start(startedBy: string, inTransaction?: (client: PoolClient) => Promise<void>): Promise<void>;
  /** A starting process finishes the run that was restarting it (the plan's last step). */
  resume(): Promise<void>;
  /** The process stops: the run in this process goes on in no one; its own restart is finished by the next. */
  stop(): Promise<void>;
}

/**
 * The rolling restart of spec §4: the runtime's plan, one step at a time, the status in PostgreSQL
 * (store/update.ts) so every replica answers the same and it survives this service's own restart,
 * which the plan does last (ContainerRuntime.restartPlan).
 */
export function updateRunner(deps: { pool: Pool; runtime: ContainerRuntime; logger: Logger }): UpdateRunner {
  const { pool, runtime, logger } = deps;
  let stopping = false;

  async function run(id: string): Promise<void> {
    const beat = setInterval(() => void heartbeat(pool, id).catch(() => {}), HEARTBEAT_MS);
    beat.unref();
    let step = UPDATE_PREPARING_STEP;
    try {
      const plan = await runtime.restartPlan();
      for (const [i, s] of plan.entries()) {
        step = s.name;
        const last = i === plan.length - 1;
        // The last step restarts this service: if this process is gone before it returns, the new one ends the run.
        await setStep(pool, id, s.name, progressOf(i, plan.length), last);
        logger.info({ step: s.name, index: i, of: plan.length }, 'system update step');
        await s.run();
      }
      await finishUpdate(pool, id);
      logger.info({ steps: plan.length }, 'system update finished');
    } catch (err) {
      // Stopped mid-step by our own restart: not a failure, the next process finishes the run.
      if (stopping) return;
      logger.error({ err, step }, 'system update failed');
      await failUpdate(pool, id, stepError(step, err)).catch((e) => logger.error({ err: e }, 'recording the failed update failed'));
    } finally {
      clearInterval(beat);
    }
  }

  return {
    async start(startedBy, inTransaction) {
      const id = await withTransaction(pool, async (client) => {
        await endStaleUpdates(client);
        const claimed = await insertRunningUpdate(client, UPDATE_PREPARING_STEP, startedBy);
        if (!claimed) throw appError('UPDATE_ALREADY_RUNNING');
        await inTransaction?.(client);
        return claimed;
      });
      void run(id);
    },
    async resume() {
      const n = await finishSelfRestarts(pool);
      if (n > 0) logger.info('system update finished: this service was its last restart');
    },
    async stop() {
      // Not waited for: the run may be waiting for this very process to be replaced.
      stopping = true;
    },
  };
}
