/**
 * Milliseconds per named step of one export, each from the end of the previous step: the request's
 * steps (routes/export.ts, answered as Server-Timing) and the render thread's (render/task.ts).
 */
export interface Stopwatch {
  /** Step name → milliseconds, in the order the steps ended. */
  readonly phases: Record<string, number>;
  lap(name: string): void;
}

export function stopwatch(round: (ms: number) => number = (ms) => ms): Stopwatch {
  const phases: Record<string, number> = {};
  let start = performance.now();
  return {
    phases,
    lap(name) {
      const now = performance.now();
      phases[name] = round(now - start);
      start = now;
    },
  };
}
