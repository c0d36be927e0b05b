/**
 * Who renders next (issue 32 item 3), free of I/O and timers. One user looping exports once took
 * both render threads and the whole waiting room, and every other owner got 503. Now:
 * - at most `concurrency` renders run at once (the render threads);
 * - one user runs at most `perUser` of them at once; the user's next exports wait in the user's own line,
 *   at most `perUserWaiting` of them, and beyond that are refused (429 with Retry-After);
 * - when a thread frees, the next user in round-robin order after the one served last starts the oldest
 *   export of their line, so a user with one export waits for at most one turn of each other user,
 *   however many exports the others queued;
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
   * How many exports start before `id` if nothing else arrives: the round-robin order played forward,
   * counting each user's waiting exports one per turn. Null when `id` is not waiting.
   */
  position(id: string): number | null {
    const lines = this.turn.map((u) => this.users.get(u)!.waiting);
    let ahead = 0;
    for (let round = 0; ; round++) {
      let any = false;
      for (const waiting of lines) {
        const next = waiting[round];
        if (next === undefined) continue;
        any = true;
        ahead++;
        if (next === id) return ahead;
      }
      if (!any) return null;
    }
  }

  /** Starts waiting exports while threads are free, one user after another. */
  private dispatch(): Array<{ user: string; id: string }> {
    const started: Array<{ user: string; id: string }> = [];
    let skipped = 0;
    // A user at their own cap is passed over (kept in turn); stop when a whole round starts nobody.
    while (this.runningTotal < this.limits.concurrency && this.turn.length > 0 && skipped < this.turn.length) {
      const user = this.turn.shift()!;
      const line = this.users.get(user)!;
      if (line.running >= this.limits.perUser) {
        this.turn.push(user);
        skipped++;
        continue;
      }
      skipped = 0;
      const id = line.waiting.shift()!;
      this.waitingTotal--;
      line.running++;
      this.runningTotal++;
      started.push({ user, id });
      // Back of the line if more are waiting: the others go first.
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
