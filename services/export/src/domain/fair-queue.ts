/**
 * Who renders next (issue 32 item 3), free of I/O and timers. One user looping exports once took
 * both render threads and the whole waiting room, and every other owner got 503. Now:
 * - at most `concurrency` renders run at once (the render threads);
 * - one user runs at most `perUser` of them at once; the user's next exports wait in the user's own line,
 *   at most `perUserWaiting` of them, and beyond that are refused (429 with Retry-After);
 * - when a thread frees, the waiting user with the fewest renders running starts the oldest export of
 *   their line (ties: round-robin, the user served longest ago first), so another owner's export starts
 *   at the first free thread however many exports a flooder queued (measured: with plain round-robin it
 *   waited behind one of the flooder's and timed out on a loaded machine);
 * - at most `maxWaiting` exports wait in all (then 503: the service as a whole is full).
 */
export interface FairQueueLimits {
  concurrency: number;
  perUser: number;
  perUserWaiting: number;
  maxWaiting: number;
}

export type Admission =
  | { kind: 'run' }
  /** Waits; `position` = how many exports start before it, as things stand now (1 = next). */
  | { kind: 'wait'; position: number }
  | { kind: 'refuse'; reason: 'user-busy' | 'full' };

interface UserLine {
  running: number;
  waiting: string[];
}

export class FairQueue {
  private readonly users = new Map<string, UserLine>();
  /** Users with someone waiting, in round-robin order: the front is served next. */
  private readonly turn: string[] = [];
  private runningTotal = 0;
  private waitingTotal = 0;

  constructor(private readonly limits: FairQueueLimits) {}

  get running(): number {
    return this.runningTotal;
  }
  get waiting(): number {
    return this.waitingTotal;
  }

  /** Admits export `id` of `user`: it runs now, waits, or is refused. */
  admit(user: string, id: string): Admission {
    const line = this.line(user);
    if (line.waiting.length === 0 && line.running < this.limits.perUser && this.runningTotal < this.limits.concurrency) {
      line.running++;
      this.runningTotal++;
      return { kind: 'run' };
    }
    if (line.running + line.waiting.length >= this.limits.perUser + this.limits.perUserWaiting) {
      this.forgetIfIdle(user);
      return { kind: 'refuse', reason: 'user-busy' };
    }
    if (this.waitingTotal >= this.limits.maxWaiting) {
      this.forgetIfIdle(user);
      return { kind: 'refuse', reason: 'full' };
    }
    line.waiting.push(id);
    this.waitingTotal++;
    if (line.waiting.length === 1) this.turn.push(user);
    return { kind: 'wait', position: this.position(id) ?? this.waitingTotal };
  }

  /**
   * An export of `user` finished (or failed): the exports that start now, in order. The caller starts
   * each of them (they already count as running).
   */
  release(user: string): Array<{ user: string; id: string }> {
    const line = this.users.get(user);
    if (line && line.running > 0) {
      line.running--;
      this.runningTotal--;
      this.forgetIfIdle(user);
    }
    return this.dispatch();
  }

  /** A waiting export gave up (its time ran out, or its client left). True when it was waiting. */
  cancel(user: string, id: string): boolean {
    const line = this.users.get(user);
    const at = line?.waiting.indexOf(id) ?? -1;
    if (!line || at < 0) return false;
    line.waiting.splice(at, 1);
    this.waitingTotal--;
    if (line.waiting.length === 0) this.turn.splice(this.turn.indexOf(user), 1);
    this.forgetIfIdle(user);
    return true;
  }

  /**
   * Where `id` stands (1 = starts next) if nothing else arrives: dispatch's order played forward, each
   * start counting as one more running for its user. Null when `id` is not waiting.
   */
  position(id: string): number | null {
    const turn = this.turn.map((user) => {
      const line = this.users.get(user)!;
      return { running: line.running, waiting: [...line.waiting] };
    });
    for (let ahead = 1; turn.length > 0; ahead++) {
      const at = fewestRunning(turn, () => true);
      const line = turn[at]!;
      const next = line.waiting.shift();
      if (next === id) return ahead;
      line.running++;
      turn.splice(at, 1);
      if (line.waiting.length > 0) turn.push(line);
    }
    return null;
  }

  /** Starts waiting exports while threads are free: fewest running first, a user at their cap passed over. */
  private dispatch(): Array<{ user: string; id: string }> {
    const started: Array<{ user: string; id: string }> = [];
    while (this.runningTotal < this.limits.concurrency) {
      const lines = this.turn.map((u) => this.users.get(u)!);
      const at = fewestRunning(lines, (l) => l.running < this.limits.perUser);
      if (at < 0) break;
      const [user] = this.turn.splice(at, 1) as [string];
      const line = lines[at]!;
      const id = line.waiting.shift()!;
      this.waitingTotal--;
      line.running++;
      this.runningTotal++;
      started.push({ user, id });
      // Back of the line if more are waiting: the others go first on a tie.
      if (line.waiting.length > 0) this.turn.push(user);
    }
    return started;
  }

  private line(user: string): UserLine {
    let line = this.users.get(user);
    if (!line) this.users.set(user, (line = { running: 0, waiting: [] }));
    return line;
  }

  private forgetIfIdle(user: string): void {
    const line = this.users.get(user);
    if (line && line.running === 0 && line.waiting.length === 0) this.users.delete(user);
  }
}

/** Index of the first line (in turn order) with the fewest running among those `eligible`, or -1. */
function fewestRunning<L extends { running: number }>(lines: readonly L[], eligible: (l: L) => boolean): number {
  let best = -1;
  for (let i = 0; i < lines.length; i++) {
    if (eligible(lines[i]!) && (best < 0 || lines[i]!.running < lines[best]!.running)) best = i;
  }
  return best;
}
