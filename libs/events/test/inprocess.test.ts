import { describe, it, expect } from 'vitest';
import { createInProcessTransport } from '../src/index.ts';
import { transportContract } from './transportContract.ts';
import { userDeleted } from './helpers.ts';

transportContract('in-process', async (logger) => {
  const transport = createInProcessTransport({ logger });
  return { transport, close: () => transport.close() };
});

describe('in-process transport', () => {
  it('refuses to publish after close and reports unhealthy', async () => {
    const t = createInProcessTransport();
    await t.close();
    expect(await t.healthy()).toBe(false);
    await expect(t.publish(userDeleted())).rejects.toThrow(/closed/);
  });
});
