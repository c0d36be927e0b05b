import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import * as Y from 'yjs';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '@wb/db';
import { tempDir } from '@wb/testkit';
import { call, eventually, yClient } from './clients.ts';
import { killProducts, startProduct } from './product.ts';

type Client = ReturnType<typeof yClient> & { prefix: string; timer?: NodeJS.Timeout };

const receivedBy = (c: Client) => [...c.objects().keys()].filter((k) => !k.startsWith(c.prefix));

function addSticky(doc: Y.Doc, id: string) {
  const m = new Y.Map<unknown>();
  doc.transact(() => {
    doc.getMap('objects').set(id, m);
    for (const [k, v] of Object.entries({ id, type: 'sticky', x: 0, y: 0, width: 120, height: 120, text: id, zIndex: 1 })) m.set(k, v);
  });
}

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
  const clients: Client[] = [];
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
      const editors: Client[] = [0, 1, 2].map((i) => {
        const c: Client = { ...yClient(ws, boardId, token), prefix: `r${round}c${i}-` };
        clients.push(c);
        return c;
      });
      await eventually(() => editors.every((c) => c.provider.synced), 15_000, 'clients to sync');
      let n = 0;
      for (const c of editors) c.timer = setInterval(() => addSticky(c.doc, `${c.prefix}${n++}`), 10);
      await eventually(
        () => editors.every((c) => receivedBy(c).filter((k) => k.startsWith(`r${round}`)).length >= 30),
        15_000,
        'edits to flow',
      );

      process.kill(-product.child.pid!, 'SIGKILL');
      await product.exited;
      for (const c of editors) {
        clearInterval(c.timer);
        // Destroyed before the restart: a reconnecting client would send back what the server lost.
        c.provider.destroy();
        for (const k of receivedBy(c)) received.add(k);
      }

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
