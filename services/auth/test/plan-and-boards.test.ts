import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEvent } from '@wb/events';
import { eventually, startPostgres } from '@wb/testkit';
import { call, register, startAuth, type TestAuth } from './helpers.ts';

let pg: Awaited<ReturnType<typeof startPostgres>>;
let auth: TestAuth;
beforeAll(async () => {
  pg = await startPostgres();
  auth = await startAuth({ serverUrl: pg.url });
}, 60_000);
afterAll(async () => {
  await auth?.close();
  await pg?.stop();
});

describe('plan_name and boards_count from billing and boards events', () => {
  it('follow entitlements.changed and board.created / board.deleted, without waiting for the cache', async () => {
    const u = await register(auth.base);
    const me = () => call(auth.base, 'GET', '/api/auth/verify', { token: u.accessToken });
    // Billing has not spoken yet: no subscription, so Free (the register answer says so too).
    expect(u.user.plan_name).toBe('Free');
    expect((await me()).body.user).toMatchObject({ plan_name: 'Free', boards_count: 0 });

    const entitlements = (planName: string) =>
      newEvent(
        'entitlements.changed',
        { userId: u.user.id, planName, maxBoards: -1, maxCanvasWidth: 50000, maxCanvasHeight: 50000, exportPdf: true, limitsEnabled: true },
        'billing',
      );
    await auth.transport.publish(entitlements('Pro'));
    const boards = [randomUUID(), randomUUID(), randomUUID()];
    for (const boardId of boards) {
      await auth.transport.publish(newEvent('board.created', { boardId, ownerId: u.user.id, title: 'Доска', folderId: null }, 'boards'));
    }
    const deleted = newEvent('board.deleted', { boardId: boards[0]!, ownerId: u.user.id }, 'boards');
    await auth.transport.publish(deleted);
    // A redelivery of the same event counts once.
    await auth.transport.publish(deleted);
    await eventually(async () => expect((await me()).body.user).toMatchObject({ plan_name: 'Pro', boards_count: 2 }));

    await auth.transport.publish(entitlements('Free'));
    await eventually(async () => expect((await me()).body.user.plan_name).toBe('Free'));
  });
});
