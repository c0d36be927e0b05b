/**
 * A real stack for realtime tests: auth (tokens, JWKS) and boards (roles, sharing, events) on an
 * embedded Postgres, realtime on FerretDB or Postgres, events in-process or over a real NATS.
 */
import http from 'node:http';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { WebsocketProvider } from 'y-websocket';
import { connect, type NatsConnection } from 'nats';
import type { Pool } from '@wb/db';
import { createInProcessTransport, type EventTransport } from '@wb/events';
import { createLogger, createTokenVerifier, internalHeaders, listen, type RunningServer } from '@wb/service-kit';
import { callJson, createBoard, createDatabase, eventually, registerUser, shareBoard } from '@wb/testkit';
import { startServices } from '@wb/testkit/services';
import { createRealtimeService, type RealtimeService } from '../src/app.ts';
import { createBoardAccessClient, type BoardAccessClient } from '../src/access.ts';
import type { RealtimeLimits } from '../src/config.ts';
import type { DocumentStore } from '../src/store/types.ts';

export const silent = createLogger('realtime-test', 'silent');

export interface Platform {
  authBase: string;
  boardsBase: string;
  jwksUrl: string;
  /** The credential auth's and boards' /internal/* calls need. */
  internalToken: string;
  transport: EventTransport;
  user(name?: string): Promise<{ id: string; name: string; token: string }>;
  api(method: string, path: string, opts?: { token?: string; body?: unknown; base?: string; headers?: Record<string, string> }): Promise<{ status: number; body: any }>;
  /** A board owned by `owner` with the given role links switched on; returns the share tokens. */
  board(owner: { token: string }, roles?: Array<'viewer' | 'guest' | 'editor'>): Promise<{ id: string; links: Record<string, string> }>;
  flushOutbox(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Real auth + boards (started from their definitions by package name, as the runners do) on a
 * database of their own on the test's PostgreSQL server, sharing one event transport.
 */
export async function startPlatform(
  pgServerUrl: string,
  transport: EventTransport = createInProcessTransport(),
  /** Stands in for realtime's internal revoke, which boards calls before answering a sharing change. */
  opts: { revokeLinks?: (boardId: string, tokens: string[]) => Promise<void> } = {},
): Promise<Platform> {
  const revoke = opts.revokeLinks ? await revokeEndpoint(opts.revokeLinks) : undefined;
  const started = await startServices(['@wb/auth', '@wb/boards'], {
    databaseUrl: await createDatabase(pgServerUrl),
    transport,
    env: { REALTIME_URL: revoke?.url },
  });
  const authBase = started.urls.auth!;
  const boardsBase = started.urls.boards!;
  const jwksUrl = `${authBase}/internal/jwks`;

  const api: Platform['api'] = (method, path, opts = {}) => callJson(opts.base ?? boardsBase, method, path, opts);

  return {
    authBase,
    boardsBase,
    jwksUrl,
    internalToken: started.internalToken,
    transport,
    api,
    async user(name = 'Анна') {
      const u = await registerUser(authBase, { name });
      return { id: u.id, name, token: u.token };
    },
    async board(owner, roles = []) {
      const { id } = await createBoard(boardsBase, owner);
      const links = roles.length > 0 ? await shareBoard(boardsBase, owner, id, roles) : {};
      return { id, links: links as Record<string, string> };
    },
    async flushOutbox() {
      await (started.services.boards as { flushOutbox?(): Promise<void> }).flushOutbox?.();
    },
    async stop() {
      await started.stop();
      await revoke?.close();
    },
  };
}

/** What realtime's POST /internal/boards/:id/revoke receives, handed to a test's function. */
async function revokeEndpoint(fn: (boardId: string, tokens: string[]) => Promise<void>) {
  const server = http.createServer((req, res) => {
    const m = /^\/internal\/boards\/([^/]+)\/revoke$/.exec(req.url ?? '');
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (!m) return void res.writeHead(404).end();
      fn(decodeURIComponent(m[1]!), (JSON.parse(body) as { tokens: string[] }).tokens).then(
        () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'),
        () => res.writeHead(500).end(),
      );
    });
  });
  const running = await listen(server, 0, '127.0.0.1');
  return { url: `http://127.0.0.1:${running.port}`, close: () => running.close() };
}

export interface RunningRealtime {
  service: RealtimeService;
  port: number;
  wsUrl: string;
  httpBase: string;
  nats?: NatsConnection;
  stop(): Promise<void>;
}

export async function startRealtime(opts: {
  platform: Platform;
  store: DocumentStore;
  transport?: EventTransport;
  natsUrl?: string;
  replicaId?: string;
  limits?: Partial<RealtimeLimits>;
  /** Stands in for the HTTP access client (e.g. to count look-ups). */
  boards?: BoardAccessClient;
}): Promise<RunningRealtime> {
  // As the runner connects (service-kit lazyNats): no echo of its own messages.
  const nats = opts.natsUrl ? await connect({ servers: opts.natsUrl, noEcho: true }) : undefined;
  const service = await createRealtimeService({
    logger: silent,
    store: opts.store,
    verifier: createTokenVerifier({ jwksUrl: opts.platform.jwksUrl, headers: internalHeaders(opts.platform.internalToken) }),
    boards: opts.boards ?? createBoardAccessClient(opts.platform.boardsBase, undefined, { internalToken: opts.platform.internalToken }),
    transport: opts.transport ?? opts.platform.transport,
    nats,
    replicaId: opts.replicaId,
    limits: { compactIntervalMs: 60_000, ...opts.limits },
  });
  await service.start();
  const server = http.createServer(service.app);
  server.on('upgrade', (req, socket, head) => service.handleUpgrade!(req, socket, head));
  const running: RunningServer = await listen(server, 0, '127.0.0.1');
  return {
    service,
    port: running.port,
    wsUrl: `ws://127.0.0.1:${running.port}/yjs`,
    httpBase: `http://127.0.0.1:${running.port}`,
    nats,
    async stop() {
      await service.stop();
      await running.close();
      await nats?.drain();
    },
  };
}

// Under Node every y-websocket provider adds a process 'exit' listener (removed on destroy); tests hold
// more than Node's default 10 at once, which is no leak.
process.setMaxListeners(100);

/** The stock y-websocket provider, with `ws` standing in for the browser's WebSocket. */
export function provider(wsUrl: string, boardId: string, token: string, doc = new Y.Doc(), params: Record<string, string> = {}) {
  return new WebsocketProvider(wsUrl, boardId, doc, {
    params: { token, ...params },
    WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket,
    disableBc: true,
    maxBackoffTime: 200,
  });
}

/** The code of the provider's next closed connection. */
export function nextCloseCode(p: WebsocketProvider): Promise<number> {
  return new Promise((resolve) => p.once('connection-close', (e: { code?: number } | null) => resolve(e?.code as number)));
}

export async function synced(p: WebsocketProvider, timeoutMs = 10_000): Promise<void> {
  await eventually(() => p.synced, { timeoutMs, what: 'the provider to sync' });
}

/** Opens a raw socket and reports how the server closed it. */
export function rawSocket(url: string): { ws: WebSocket; opened: Promise<void>; closed: Promise<{ code: number; reason: string }>; messages: Buffer[] } {
  const ws = new WebSocket(url);
  const messages: Buffer[] = [];
  ws.on('message', (d) => messages.push(d as Buffer));
  ws.on('error', () => {});
  const opened = new Promise<void>((resolve) => ws.once('open', () => resolve()));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  return { ws, opened, closed, messages };
}

export { eventually } from '@wb/testkit';

export function sticky(id: string, text = 'Привет') {
  return { id, type: 'sticky' as const, x: 0, y: 0, width: 120, height: 120, text, backgroundColor: '#FFF2B3', textColor: '#333333', fontSize: 14, textAlign: 'left' as const, zIndex: 0 };
}

export type { Pool };
