/**
 * A real stack for realtime tests: auth (tokens, JWKS) and boards (roles, sharing, events) on an
 * embedded Postgres, realtime on FerretDB or Postgres, events in-process or over a real NATS.
 */
import http from 'node:http';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { WebsocketProvider } from 'y-websocket';
import { connect, type NatsConnection } from 'nats';
import { createPool, type Pool } from '@wb/db';
import { createInProcessTransport, type EventTransport } from '@wb/events';
import { createLogger, createTokenVerifier, listen, parseConfig, type RunningServer } from '@wb/service-kit';
import { callJson, createBoard, createDatabase, registerUser, shareBoard } from '@wb/testkit';
import { AuthConfigSchema, createAuthService } from '../../auth/src/app.ts';
import { createBoardsService } from '../../boards/src/app.ts';
import { createRealtimeService, type RealtimeService } from '../src/app.ts';
import { createBoardAccessClient, type BoardAccessClient } from '../src/access.ts';
import type { RealtimeLimits } from '../src/config.ts';
import type { DocumentStore } from '../src/store/types.ts';

export const silent = createLogger('realtime-test', 'silent');

export interface Platform {
  authBase: string;
  boardsBase: string;
  jwksUrl: string;
  transport: EventTransport;
  user(name?: string): Promise<{ id: string; name: string; token: string }>;
  api(method: string, path: string, opts?: { token?: string; body?: unknown; base?: string; headers?: Record<string, string> }): Promise<{ status: number; body: any }>;
  /** A board owned by `owner` with the given role links switched on; returns the share tokens. */
  board(owner: { token: string }, roles?: Array<'viewer' | 'guest' | 'editor'>): Promise<{ id: string; links: Record<string, string> }>;
  flushOutbox(): Promise<void>;
  stop(): Promise<void>;
}

/** Real auth + boards sharing one Postgres server and one event transport. */
export async function startPlatform(
  pgServerUrl: string,
  transport: EventTransport = createInProcessTransport(),
  /** What boards calls before answering a sharing change (realtime's internal revoke). */
  opts: { revokeLinks?: (boardId: string, tokens: string[]) => Promise<void> } = {},
): Promise<Platform> {
  const authPool = createPool({ url: await createDatabase(pgServerUrl), schema: 'auth', max: 10 });
  const auth = await createAuthService({
    pool: authPool,
    transport,
    logger: silent,
    config: parseConfig(AuthConfigSchema, { DATABASE_URL: 'postgres://unused/x', LOG_LEVEL: 'silent' }),
  });
  await auth.start();
  const authServer = await listen(auth.app, 0, '127.0.0.1');
  const authBase = `http://127.0.0.1:${authServer.port}`;
  const jwksUrl = `${authBase}/internal/jwks`;

  const boardsPool = createPool({ url: await createDatabase(pgServerUrl), schema: 'boards', max: 10 });
  const boards = await createBoardsService({
    pool: boardsPool,
    transport,
    logger: silent,
    config: { http: { bodyLimit: '100kb' } },
    verifier: createTokenVerifier({ jwksUrl }),
    revokeLinks: opts.revokeLinks,
  });
  await boards.start();
  const boardsServer = await listen(boards.app, 0, '127.0.0.1');
  const boardsBase = `http://127.0.0.1:${boardsServer.port}`;

  const api: Platform['api'] = (method, path, opts = {}) => callJson(opts.base ?? boardsBase, method, path, opts);

  return {
    authBase,
    boardsBase,
    jwksUrl,
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
      await boards.flushOutbox();
    },
    async stop() {
      await boardsServer.close();
      await boards.stop();
      await authServer.close();
      await auth.stop();
      await boardsPool.end();
      await authPool.end();
    },
  };
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
  const nats = opts.natsUrl ? await connect({ servers: opts.natsUrl }) : undefined;
  const service = await createRealtimeService({
    logger: silent,
    store: opts.store,
    verifier: createTokenVerifier({ jwksUrl: opts.platform.jwksUrl }),
    boards: opts.boards ?? createBoardAccessClient(opts.platform.boardsBase),
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

/** The stock y-websocket provider, with `ws` standing in for the browser's WebSocket. */
export function provider(wsUrl: string, boardId: string, token: string, doc = new Y.Doc(), params: Record<string, string> = {}) {
  return new WebsocketProvider(wsUrl, boardId, doc, {
    params: { token, ...params },
    WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket,
    disableBc: true,
    maxBackoffTime: 200,
  });
}

export async function synced(p: WebsocketProvider, timeoutMs = 10_000): Promise<void> {
  if (p.synced) return;
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('provider did not sync')), timeoutMs);
    p.once('sync', (s: boolean) => {
      if (s) {
        clearTimeout(t);
        resolve();
      }
    });
  });
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

export { eventually, sleep } from '@wb/testkit';

export function sticky(id: string, text = 'Привет') {
  return { id, type: 'sticky' as const, x: 0, y: 0, width: 120, height: 120, text, backgroundColor: '#FFF2B3', textColor: '#333333', fontSize: 14, textAlign: 'left' as const, zIndex: 0 };
}

export type { Pool };
