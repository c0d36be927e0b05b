/**
 * The one polling helper for tests: retries `check` until it passes, instead of sleeping a fixed
 * time and hoping the asynchronous work (a consumer, a relay, a socket) is done by then.
 * `check` passes when it neither throws nor returns `false`; so it can be a list of `expect`s or a
 * boolean condition. On time-out the last assertion error is rethrown (or a message naming `what`).
 */
export interface EventuallyOptions {
  timeoutMs?: number;
  intervalMs?: number;
  /** Named in the time-out message of a boolean check. */
  what?: string;
}

export async function eventually(
  check: () => unknown,
  opts: EventuallyOptions | number = {},
  what?: string,
): Promise<void> {
  const o = typeof opts === 'number' ? { timeoutMs: opts, what } : opts;
  const deadline = Date.now() + (o.timeoutMs ?? 10_000);
  const interval = o.intervalMs ?? 25;
  for (;;) {
    let failure: unknown;
    try {
      if ((await check()) !== false) return;
      failure = new Error(`timed out waiting for ${o.what ?? 'condition'}`);
    } catch (err) {
      failure = err;
    }
    if (Date.now() > deadline) throw failure;
    await sleep(interval);
  }
}

// No `sleep` here on purpose: a test that must prove something does NOT happen waits for a later
// positive sentinel on the same path (a valid update after the refused one) instead of a timer;
// the lint rule tests/no-fixed-wait (scripts/lint/no-fixed-wait.mjs) keeps it so.
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
