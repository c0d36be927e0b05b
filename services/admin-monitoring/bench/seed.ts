/**
 * Fills the admin schema for the stats/activity benchmark through the service's own consumers (the
 * handlers of src/events, each in idempotent() as in production; no transport): `users`
 * user.registered, then `boards` board.created spread over them, `workers` transactions at a time.
 * Answers how many events and how long (the consumers' throughput on this machine).
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { DomainEvent } from '@wb/contracts';
import { migrate, type Pool } from '@wb/db';
import { ensureEventTables, idempotent, newEvent } from '@wb/events';
import { SCHEMA } from '../src/app.ts';
import { boardsConsumer } from '../src/events/boards.ts';
import { usersConsumer } from '../src/events/users.ts';

export interface AdminSeedOptions {
  users?: number;
  boards?: number;
  workers?: number;
  onProgress?: (done: number, total: number) => void;
}

async function runAll(events: DomainEvent[], handle: (e: DomainEvent) => Promise<void>, workers: number, onDone: () => void) {
  let next = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < events.length) {
        await handle(events[next++]!);
        onDone();
      }
    }),
  );
}

export async function seedAdminBenchmark(pool: Pool, opts: AdminSeedOptions = {}) {
  const users = opts.users ?? 10_000;
  const boards = opts.boards ?? 100_000;
  const workers = opts.workers ?? 8;
  await migrate(pool, { schema: SCHEMA, dir: fileURLToPath(new URL('../migrations', import.meta.url)) });
  await ensureEventTables(pool);
  const ids = Array.from({ length: users }, () => randomUUID());
  const registered = ids.map((userId, i) =>
    newEvent('user.registered', { userId, email: `bench-${i}@example.com`, name: `Пользователь ${i}`, createdAt: new Date().toISOString() }, 'auth'),
  );
  const created = Array.from({ length: boards }, (_, i) =>
    newEvent('board.created', { boardId: randomUUID(), ownerId: ids[i % users]!, title: `Доска ${i}`, folderId: null }, 'boards'),
  );
  const total = users + boards;
  let done = 0;
  const tick = () => {
    done++;
    if (done % 10_000 === 0) opts.onProgress?.(done, total);
  };
  const started = performance.now();
  const onUsers = idempotent(pool, usersConsumer.durable, async (e, c) => usersConsumer.handle(e as DomainEvent<'user.registered'>, c));
  const onBoards = idempotent(pool, boardsConsumer.durable, async (e, c) => boardsConsumer.handle(e as DomainEvent<'board.created'>, c));
  await runAll(registered, onUsers, workers, tick);
  await runAll(created, onBoards, workers, tick);
  return { events: total, ms: performance.now() - started };
}
