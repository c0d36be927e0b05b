/**
 * At most `concurrency` renders at once; a few more may wait, each for at most `timeoutMs`. Anything
 * beyond is refused at once: the caller answers 503 with Retry-After instead of piling up requests
 * the workers could never serve in time.
 */
export class GateBusy extends Error {
  constructor(readonly reason: 'queue-full' | 'timeout') {
    super(`export gate busy (${reason})`);
  }
}

export interface Gate {
  run<T>(job: () => Promise<T>): Promise<T>;
  readonly running: number;
  readonly waiting: number;
}

export function createGate(opts: { concurrency: number; maxWaiting: number; timeoutMs: number }): Gate {
  let running = 0;
  const queue: Array<{ start: () => void; timer: ReturnType<typeof setTimeout> }> = [];

  function release() {
    running--;
    const next = queue.shift();
    if (next) {
      clearTimeout(next.timer);
      running++;
      next.start();
    }
  }

  return {
    get running() {
      return running;
    },
    get waiting() {
      return queue.length;
    },
    async run(job) {
      if (running < opts.concurrency) {
        running++;
      } else {
        if (queue.length >= opts.maxWaiting) throw new GateBusy('queue-full');
        await new Promise<void>((resolve, reject) => {
          const entry = {
            start: resolve,
            timer: setTimeout(() => {
              queue.splice(queue.indexOf(entry), 1);
              reject(new GateBusy('timeout'));
            }, opts.timeoutMs),
          };
          queue.push(entry);
        });
      }
      try {
        return await job();
      } finally {
        release();
      }
    },
  };
}
