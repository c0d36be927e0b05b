// The fair queue's rules (issue 32 item 3), pure: no threads, no timers.
import { describe, expect, it } from 'vitest';
import { FairQueue } from '../src/domain/fair-queue.ts';

const limits = { concurrency: 2, perUser: 2, perUserWaiting: 3, maxWaiting: 20 };

describe('fair queue', () => {
  it('runs a user’s first two exports, queues the next ones, refuses past the user’s share', () => {
    const q = new FairQueue({ ...limits, concurrency: 4 });
    expect(q.admit('u1', 'a')).toEqual({ kind: 'run' });
    expect(q.admit('u1', 'b')).toEqual({ kind: 'run' });
    // Threads are free, but u1 already runs two.
    expect(q.admit('u1', 'c')).toEqual({ kind: 'wait', position: 1 });
    expect(q.admit('u1', 'd')).toEqual({ kind: 'wait', position: 2 });
    expect(q.admit('u1', 'e')).toEqual({ kind: 'wait', position: 3 });
    expect(q.admit('u1', 'f')).toEqual({ kind: 'refuse', reason: 'user-busy' });
    expect([q.running, q.waiting]).toEqual([2, 3]);
    // Another user gets a free thread at once.
    expect(q.admit('u2', 'x')).toEqual({ kind: 'run' });
    expect(q.release('u1')).toEqual([{ user: 'u1', id: 'c' }]);
  });

  it('starts the waiting user with the fewest renders first: another owner goes before a flooder’s queue', () => {
    const q = new FairQueue(limits);
    q.admit('u1', 'a');
    q.admit('u1', 'b');
    q.admit('u1', 'c');
    q.admit('u1', 'd');
    // u2 and u3 arrive behind two waiting exports of u1, and start at the first free threads.
    expect(q.admit('u2', 'x')).toEqual({ kind: 'wait', position: 1 });
    expect(q.admit('u3', 'y')).toEqual({ kind: 'wait', position: 2 });
    expect(q.position('c')).toBe(3);
    expect(q.position('d')).toBe(4);
    expect(q.release('u1')).toEqual([{ user: 'u2', id: 'x' }]);
    // u1 and u3 both run none now: the one waiting longer (u1, first in turn) goes.
    expect(q.release('u1')).toEqual([{ user: 'u1', id: 'c' }]);
    expect(q.release('u2')).toEqual([{ user: 'u3', id: 'y' }]);
    expect(q.release('u3')).toEqual([{ user: 'u1', id: 'd' }]);
    expect(q.release('u1')).toEqual([]);
    expect(q.release('u1')).toEqual([]);
    expect([q.running, q.waiting]).toEqual([0, 0]);
  });

  it('passes over a user at their own cap and starts the next one', () => {
    const q = new FairQueue({ ...limits, concurrency: 4 });
    q.admit('u2', 'x1');
    q.admit('u1', 'a');
    q.admit('u1', 'b');
    q.admit('u1', 'c');
    expect(q.admit('u2', 'x2')).toEqual({ kind: 'run' });
    expect(q.admit('u2', 'x3')).toEqual({ kind: 'wait', position: 2 });
    // u2 frees one: u1 is first in turn but runs two already; u2's own next export starts.
    expect(q.release('u2')).toEqual([{ user: 'u2', id: 'x3' }]);
  });

  it('refuses everyone once the whole waiting room is full, and forgets cancelled waits', () => {
    const q = new FairQueue({ ...limits, concurrency: 1, maxWaiting: 2 });
    q.admit('u1', 'a');
    expect(q.admit('u2', 'b')).toMatchObject({ kind: 'wait' });
    expect(q.admit('u3', 'c')).toMatchObject({ kind: 'wait' });
    expect(q.admit('u4', 'd')).toEqual({ kind: 'refuse', reason: 'full' });
    expect(q.cancel('u2', 'b')).toBe(true);
    expect(q.cancel('u2', 'b')).toBe(false);
    expect(q.position('c')).toBe(1);
    expect(q.release('u1')).toEqual([{ user: 'u3', id: 'c' }]);
    expect(q.release('u3')).toEqual([]);
    expect([q.running, q.waiting]).toEqual([0, 0]);
  });
});
