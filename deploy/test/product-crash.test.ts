import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '@wb/db';
import { tempDir } from '@wb/testkit';
import { call, eventually, startTyping, stopTyping, yClient, type TypingClient } from './clients.ts';
import { killProducts, startProduct } from './product.ts';

const journalSegments = (dataDir: string) => {
  const dir = path.join(dataDir, 'realtime-journal');
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.log')) : [];
};

// npm start killed outright (kill -9 of its process group, the OOM killer) while three people
// type: what any of them had received from another is in the board after the next start. The
// embedded mode's update log goes through a journal on disk (services/realtime/src/store/journal.ts);
// the restart replays what the killed process had not yet shipped to PostgreSQL.
describe('npm start killed with SIGKILL while people edit', () => {
  const running: Array<ReturnType<typeof startProduct>> = [];
  const clients: TypingClient[] = [];
  afterAll(() => {
    for (const c of clients) c.provider.destroy();
    killProducts(running);
  });

  it('loses no edit any client received; the restart replays the journal and empties it', async () => {
    const dataDir = await tempDir('product-crash');
    const port = await freePort();
    let product = startProduct(dataDir, port);
    running.push(product);
    await product.ready;
    const reg = await call(product.base, 'POST', '/api/auth/register', {
      body: { email: 'crash@example.com', password: 'Secret-123', name: 'Сбой' },
    });
    expect(reg.status).toBe(201);
    let token: string = reg.body.accessToken;
    const created = await call(product.base, 'POST', '/api/boards', { token, body: { title: 'Сбой процесса', folder_id: null } });
    const boardId: string = created.body.board.id;

    const received = new Set<string>();
    for (let round = 0; round < 2; round++) {
      const ws = product.base.replace('http', 'ws') + '/yjs';
      const editors = await startTyping(ws, boardId, token, round, { everyMs: 10, atLeast: 30, clients });

      process.kill(-product.child.pid!, 'SIGKILL');
      await product.exited;
      stopTyping(editors, received);

      product = startProduct(dataDir, port);
      running.push(product);
      await product.ready;
      token = (await call(product.base, 'POST', '/api/auth/login', { body: { email: 'crash@example.com', password: 'Secret-123' } })).body.accessToken;
      const check = yClient(product.base.replace('http', 'ws') + '/yjs', boardId, token);
      await eventually(() => check.provider.synced, 15_000, 'the checking client to sync');
      const missing = [...received].filter((k) => !check.objects().has(k));
      check.provider.destroy();
      expect(missing, `round ${round}: edits a client had received, lost after kill -9 and a restart`).toEqual([]);
      // The journal was replayed into PostgreSQL and removed; only the new, empty segment is there.
      expect(journalSegments(dataDir).length).toBeLessThanOrEqual(1);
    }
    expect(received.size).toBeGreaterThan(50);

    process.kill(-product.child.pid!, 'SIGTERM');
    expect(await product.exited).toBe(0);
    // A clean stop ships everything: no segment is left with anything in it.
    expect(journalSegments(dataDir)).toEqual([]);
  }, 300_000);
});
