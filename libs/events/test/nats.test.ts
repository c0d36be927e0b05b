import { spawn } from 'node:child_process';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { connect } from 'nats';
import { startNats, tempDir, repoRoot, type ManagedProcess } from '@wb/testkit';
import { createNatsTransport, type DomainEvent } from '../src/index.ts';
import { transportContract } from './transportContract.ts';
import { durableName, memoryLogger, userDeleted, waitFor } from './helpers.ts';

let server: ManagedProcess;

beforeAll(async () => {
  server = await startNats();
});
afterAll(async () => {
  await server?.stop();
});

async function deleteStream(url: string) {
  const nc = await connect({ servers: url });
  const jsm = await nc.jetstreamManager();
  await jsm.streams.delete('WB_EVENTS').catch(() => {});
  await nc.close();
}

transportContract('NATS JetStream', async (logger) => {
  const transport = await createNatsTransport({ servers: server.url, logger });
  return {
    transport,
    async close() {
      await transport.close();
      await deleteStream(server.url);
    },
  };
});

describe('NATS transport', () => {
  it('creates the stream with dedupe window and file storage, and sends Nats-Msg-Id', async () => {
    const transport = await createNatsTransport({ servers: server.url });
    const event = userDeleted();
    await transport.publish(event);
    const nc = await connect({ servers: server.url });
    const jsm = await nc.jetstreamManager();
    const info = await jsm.streams.info('WB_EVENTS');
    expect(info.config.subjects).toEqual(['wb.>']);
    expect(info.config.storage).toBe('file');
    expect(info.config.duplicate_window).toBe(120_000_000_000);
    const msg = await jsm.streams.getMessage('WB_EVENTS', { last_by_subj: 'wb.user.deleted' });
    expect(msg.header.get('Nats-Msg-Id')).toBe(event.id);
    expect(msg.json()).toEqual(event);
    await nc.close();
    await transport.close();
    await deleteStream(server.url);
  });

  it('terminates a message that is not JSON and keeps consuming', async () => {
    const { logger, records } = memoryLogger();
    const transport = await createNatsTransport({ servers: server.url, logger });
    const got: string[] = [];
    const sub = await transport.subscribe({ durable: durableName('raw'), types: ['user.deleted'], handler: async (e) => void got.push(e.id) });
    const nc = await connect({ servers: server.url });
    await nc.jetstream().publish('wb.user.deleted', new TextEncoder().encode('{not json'));
    await nc.close();
    const good = userDeleted();
    await transport.publish(good);
    await waitFor(() => got.length === 1);
    expect(got).toEqual([good.id]);
    expect(records.some((r) => r.level === 'error' && r.msg === 'malformed event dropped')).toBe(true);
    await sub.stop();
    await transport.close();
    await deleteStream(server.url);
  });

  it('redelivers to a new consumer when the first one crashes before acking', async () => {
    const durable = durableName('crash');
    const ackWaitMs = 1_500;
    const child = spawn(process.execPath, ['--import', 'tsx', 'libs/events/test/fixtures/crash-consumer.ts'], {
      cwd: repoRoot,
      env: { ...process.env, NATS_URL: server.url, DURABLE: durable, ACK_WAIT_MS: String(ackWaitMs) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((r) => child.once('exit', r));
    let out = '';
    child.stdout!.on('data', (b) => (out += String(b)));
    try {
      await waitFor(() => out.includes('ready'), 20_000, 'the child consumer');
      const transport = await createNatsTransport({ servers: server.url });
      const event = userDeleted();
      await transport.publish(event);
      await waitFor(() => out.includes(`received ${event.id}`), 10_000, 'the child to receive');
      child.kill('SIGKILL');
      await exited;

      const got: string[] = [];
      const sub = await transport.subscribe({ durable, types: ['user.deleted'], ackWaitMs, handler: async (e) => void got.push(e.id) });
      await waitFor(() => got.length === 1, 10_000, 'the redelivery');
      expect(got).toEqual([event.id]);
      await sub.stop();
      await transport.close();
    } finally {
      child.kill('SIGKILL');
      await deleteStream(server.url);
    }
  });

  it('survives a nats-server restart and keeps consuming', async () => {
    const storeDir = await tempDir('nats-restart');
    let own = await startNats({ storeDir });
    const { logger } = memoryLogger();
    const transport = await createNatsTransport({ servers: own.url, logger, reconnectTimeWaitMs: 200 });
    try {
      const got: DomainEvent[] = [];
      await transport.subscribe({ durable: 'restart', types: ['user.deleted'], handler: async (e) => void got.push(e) });
      const first = userDeleted();
      await transport.publish(first);
      await waitFor(() => got.length === 1);

      await own.stop();
      await waitFor(async () => !(await transport.healthy()), 5_000, 'unhealthy while down');
      own = await startNats({ port: own.port, storeDir });
      await waitFor(() => transport.healthy(), 10_000, 'reconnect');

      const second = userDeleted();
      // The relay would retry a publish that fails while the stream is recovering; so do we.
      await waitFor(
        () => transport.publish(second).then(() => true, () => false),
        15_000,
        'a publish after the restart',
      );
      await waitFor(() => got.length === 2, 20_000, 'delivery after the restart');
      expect(got.map((e) => e.id)).toEqual([first.id, second.id]);
    } finally {
      await transport.close();
      await own.stop();
    }
  });
});
