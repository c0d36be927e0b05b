import type { Pool } from '@wb/db';
import type { Logger } from '@wb/service-kit';
import { runExpiryPass } from '../actions/subscriptions.ts';
import type { Clock } from '../clock.ts';

/** Runs the expiry pass every `intervalMs` on every replica; SKIP LOCKED in the pass keeps them from doubling up. */
export function startExpiryJob(opts: { pool: Pool; clock: Clock; logger: Logger; intervalMs: number }): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = runExpiryPass(opts.pool, opts.clock())
      .then((moved) => {
        if (moved > 0) opts.logger.info({ moved }, 'subscriptions moved by time');
      })
      .catch((err) => opts.logger.warn({ err }, 'expiry pass failed'));
  };
  const timer = setInterval(tick, opts.intervalMs);
  timer.unref();
  tick();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
