import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '@wb/contracts';
import { consume, createInProcessTransport, defineConsumer, newEvent } from '../src/index.ts';

describe('defineConsumer', () => {
  it('delivers only its types, typed by type (no casts), through a durable subscription', async () => {
    const transport = createInProcessTransport();
    const seen: string[] = [];
    const consumer = defineConsumer({
      durable: 'test-typed',
      types: ['user.deleted', 'board.deleted'],
      async handle(event) {
        // The union narrows on `type`: each branch reads its own payload's fields.
        if (event.type === 'user.deleted') seen.push(`user ${event.data.userId}`);
        else seen.push(`board ${event.data.boardId} of ${event.data.ownerId}`);
      },
    });
    const sub = await consume(transport, consumer);
    const user = '11111111-1111-4111-8111-111111111111';
    const board = '22222222-2222-4222-8222-222222222222';
    await transport.publish(newEvent('user.updated', { userId: user, email: 'a@b.cd', name: 'Ян' }, 'test'));
    await transport.publish(newEvent('user.deleted', { userId: user }, 'test'));
    await transport.publish(newEvent('board.deleted', { boardId: board, ownerId: user }, 'test'));
    await expect.poll(() => seen.length).toBe(2);
    expect(seen).toEqual([`user ${user}`, `board ${board} of ${user}`]);
    await sub.stop();
    await transport.close();
  });

  it('DomainEvent is one union keyed by type', () => {
    const e = newEvent('board.saved', { boardId: '22222222-2222-4222-8222-222222222222', version: 3, objectsCount: 1 }, 'test') as DomainEvent;
    if (e.type !== 'board.saved') throw new Error('narrowing failed');
    expect(e.data.version).toBe(3);
    // @ts-expect-error a payload of another type is not part of this member
    expect(e.data.userId).toBeUndefined();
  });
});
