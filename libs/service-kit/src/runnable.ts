import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';

/**
 * What every service hands to whoever runs it: its own main.ts in a cluster, or the embedded
 * runner that puts all services in one process behind the gateway.
 */
export interface RunnableService {
  name: string;
  app: Express;
  /** WebSocket upgrades, for services that accept them (realtime). */
  handleUpgrade?(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Migrations, outbox relay, consumers. */
  start(): Promise<void>;
  /** Stops consumers and relays and flushes pending work; does not close pools it was given. */
  stop(): Promise<void>;
}
