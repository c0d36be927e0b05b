/**
 * The export's waiting room: the fair queue's rules (fair-queue.ts) with promises and timers around
 * them. An export runs at once, waits its turn for at most `timeoutMs`, or is refused at once: GateBusy
 * 'user-busy' when its user already has their share running and waiting (429 with Retry-After),
 * 'queue-full' / 'timeout' when the service as a whole is full (503 with Retry-After).
 */
import { FairQueue, type FairQueueLimits } from './fair-queue.ts';

export class GateBusy extends Error {
  constructor(readonly reason: 'queue-full' | 'timeout' | 'user-busy') {
    super(`export gate busy (${reason})`);
  }
}

export interface GateOptions extends FairQueueLimits {
  timeoutMs: number;
}

export interface Gate {
  /** Runs `job` when `user`'s turn comes; `job` learns where the export stood when it arrived (0 = ran at once). */
  run<T>(user: string, job: (position: number) => Promise<T>): Promise<T>;
  readonly running: number;
  readonly waiting: number;
}

export function createGate(opts: GateOptions): Gate {
  const queue = new FairQueue(opts);
  const waiters = new Map<string, { start: () => void; timer: ReturnType<typeof setTimeout> }>();
  let nextId = 0;

  function release(user: string) {
    for (const { id } of queue.release(user)) {
      const w = waiters.get(id);
      if (!w) continue;
      waiters.delete(id);
      clearTimeout(w.timer);
      w.start();
    }
  }

  return {
    get running() {
      return queue.running;
    },
    get waiting() {
      return queue.waiting;
    },
    async run(user, job) {
      const id = String(++nextId);
      const admission = queue.admit(user, id);
      if (admission.kind === 'refuse') throw new GateBusy(admission.reason === 'user-busy' ? 'user-busy' : 'queue-full');
      const position = admission.kind === 'wait' ? admission.position : 0;
      if (admission.kind === 'wait') {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => {
            waiters.delete(id);
            if (queue.cancel(user, id)) reject(new GateBusy('timeout'));
          }, opts.timeoutMs);
          waiters.set(id, { start: resolve, timer });
        });
      }
      try {
        return await job(position);
      } finally {
        release(user);
      }
    },
  };
}
