import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '@wb/db';
import { tempDir } from '@wb/testkit';
import { call, eventually, startTyping, stopTyping, yClient, type TypingClient } from './clients.ts';
import { alive, killProducts, portClosed, startProduct } from './product.ts';

// Issue 8, items 1 and 2: a stop by signal (to the process group, or to the start script alone)
// flushes every edit a client has seen before PostgreSQL goes away, and leaves no process behind.
describe('stopping npm start by signal', () => {
  const running: Array<ReturnType<typeof startProduct>> = [];
  const clients: TypingClient[] = [];
  afterAll(() => {
    for (const c of clients) c.provider.destroy();
    killProducts(running);
  });

  it('loses no edit any client received, exits with its child, and starts again on the same data', async () => {
    const dataDir = await tempDir('shutdown');
    const port = await freePort();
    const received = new Set<string>();
    let product = startProduct(dataDir, port);
    running.push(product);
    await product.ready;

    const reg = await call(product.base, 'POST', '/api/auth/register', {
      body: { email: 'stop@example.com', password: 'Secret-123', name: 'Стоп' },
    });
    expect(reg.status).toBe(201);
    const email = 'stop@example.com';
    let token: string = reg.body.accessToken;
    const created = await call(product.base, 'POST', '/api/boards', {
      token,
      body: { title: 'Остановки', folder_id: null },
    });
    const boardId: string = created.body.board.id;

    const ways: Array<{ name: string; npm?: boolean; send(p: ReturnType<typeof startProduct>): void }> = [
      { name: 'SIGTERM to the process group', send: (p) => process.kill(-p.child.pid!, 'SIGTERM') },
      { name: 'SIGINT to the process group', send: (p) => process.kill(-p.child.pid!, 'SIGINT') },
      { name: 'SIGTERM to the start script alone', send: (p) => p.child.kill('SIGTERM') },
      // npm passes the signal to its script's shell; the script `exec`s the start script so the signal
      // reaches it (a `sh -c` in between died on SIGTERM and ignored SIGINT, and the product ran on).
      { name: 'SIGTERM to `npm start` alone', npm: true, send: (p) => p.child.kill('SIGTERM') },
      { name: 'SIGINT to `npm start` alone', npm: true, send: (p) => p.child.kill('SIGINT') },
      {
        name: 'SIGINT twice to the process group',
        send: (p) => {
          process.kill(-p.child.pid!, 'SIGINT');
          // wait-ok: Ctrl+C pressed twice, a moment apart, is the scenario (not a wait for a result)
          setTimeout(() => p.child.exitCode === null && process.kill(-p.child.pid!, 'SIGINT'), 30);
        },
      },
    ];

    for (const [round, way] of ways.entries()) {
      // Several clients edit continuously; the signal arrives while they are still writing.
      const ws = product.base.replace('http', 'ws') + '/yjs';
      const editors = await startTyping(ws, boardId, token, round, { everyMs: 15, atLeast: 10, clients });

      way.send(product);
      // A product that ignores the signal fails here, in seconds, instead of at the test's timeout.
      const code = await Promise.race([
        product.exited,
        new Promise<never>((_, reject) =>
          // wait-ok: a time-out guard, not a wait
          setTimeout(() => reject(new Error(`${way.name}: still running 30 s after the signal`)), 30_000),
        ),
      ]);
      stopTyping(editors, received);
      // npm's own status reports the signal it got; the start script's is checked in the other rounds.
      if (!way.npm) expect(code, `${way.name}: exit status\n${product.output()}`).toBe(0);
      expect(product.output(), way.name).not.toMatch(
        /terminating connection|flushing updates failed|shutdown hook failed|stop step failed/,
      );
      // Nothing of the stack outlives the start script: not the server, not PostgreSQL.
      await eventually(() => !alive(product.child.pid!), 5_000, 'the start script to be gone');
      await eventually(
        async () => (await fetch(`${product.base}/api/health`).catch(() => null)) === null,
        5_000,
        'the port to close',
      );
      const groupAlive = () => {
        try {
          process.kill(-product.child.pid!, 0);
          return true;
        } catch {
          return false;
        }
      };
      await eventually(() => !groupAlive(), 10_000, `${way.name}: every process of the group to exit`);
      // PostgreSQL runs in a group of its own; it must have been stopped too.
      const pgPort = Number(
        /\(PostgreSQL: postgres:\/\/[^@]+@127\.0\.0\.1:(\d+)\//.exec(product.output())?.[1],
      );
      expect(pgPort).toBeGreaterThan(0);
      await eventually(() => portClosed(pgPort), 10_000, `${way.name}: PostgreSQL to stop`);

      product = startProduct(dataDir, port, ways[round + 1]?.npm);
      running.push(product);
      await product.ready;
      const login = await call(product.base, 'POST', '/api/auth/login', {
        body: { email, password: 'Secret-123' },
      });
      token = login.body.accessToken;
      const check = yClient(product.base.replace('http', 'ws') + '/yjs', boardId, token);
      await eventually(() => check.provider.synced, 15_000, 'the checking client to sync');
      const missing = [...received].filter((k) => !check.objects().has(k));
      check.provider.destroy();
      expect(missing, `${way.name}: edits a client had received but lost after the restart`).toEqual([]);
    }
    expect(received.size).toBeGreaterThan(100);

    process.kill(-product.child.pid!, 'SIGTERM');
    expect(await product.exited).toBe(0);
  }, 600_000);
});
