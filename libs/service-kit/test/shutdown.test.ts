import { describe, expect, it } from 'vitest';
import { runFixture } from './helpers.ts';

describe('onShutdown', () => {
  it('on SIGTERM runs the hooks in order, survives a failing one, lets in-flight requests finish, exits 0', async () => {
    let slow: Promise<unknown> | undefined;
    let signalled = false;
    const r = await runFixture('shutdown.ts', {
      onMark: (mark, child) => {
        // A request in flight when the signal arrives still gets its answer: the signal goes as the
        // fixture reports the request started.
        if (mark === 'slow:start') child.kill('SIGTERM');
        const m = /^ready (\d+)$/.exec(mark);
        if (!m || signalled) return;
        signalled = true;
        const base = `http://127.0.0.1:${m[1]}`;
        void (async () => {
          expect((await fetch(`${base}/health`)).status).toBe(200);
          slow = fetch(`${base}/slow`).then((res) => res.json());
        })();
      },
    });
    expect(signalled).toBe(true);
    expect(r.code).toBe(0);
    expect(await slow).toEqual({ slow: 'done' });
    const marks = r.stdout
      .split('\n')
      .filter((l) => l.startsWith('MARK '))
      .map((l) => l.slice(5))
      .filter((l) => !l.startsWith('ready'));
    expect(marks).toEqual(['slow:start', 'close-server:start', 'close-server:end', 'flush', 'failing-hook', 'close-pools']);
    const logs = r.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg: string; signal?: string });
    expect(logs.find((l) => l.msg === 'shutting down')?.signal).toBe('SIGTERM');
    expect(logs.some((l) => l.msg === 'shutdown hook failed')).toBe(true);
    // Present, not necessarily last: pino may finish a long line (the error's stack) after a short one.
    expect(logs.map((l) => l.msg)).toContain('stopped');
  });

  it('a second signal while stopping (Ctrl+C reaches the whole group) is ignored: every hook still runs, exit 0', async () => {
    let signalled = false;
    const r = await runFixture('shutdown.ts', {
      onStdout: (chunk, child) => {
        if (signalled || !/MARK ready/.test(chunk)) return;
        signalled = true;
        child.kill('SIGINT');
      },
      // More signals while it is stopping: as its first hook starts and as it ends.
      onMark: (mark, child) => {
        if (mark === 'close-server:start') child.kill('SIGINT');
        if (mark === 'close-server:end') child.kill('SIGTERM');
      },
    });
    expect(r.code).toBe(0);
    const marks = r.stdout
      .split('\n')
      .filter((l) => l.startsWith('MARK ') && !l.startsWith('MARK ready'))
      .map((l) => l.slice(5));
    expect(marks).toEqual(['close-server:start', 'close-server:end', 'flush', 'failing-hook', 'close-pools']);
    const logs = r.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg: string });
    expect(logs.filter((l) => l.msg === 'already stopping; signal ignored').length).toBeGreaterThanOrEqual(1);
    // Present, not necessarily last: pino may finish a long line (the error's stack) after a short one.
    expect(logs.map((l) => l.msg)).toContain('stopped');
  });
});
