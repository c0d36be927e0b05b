/**
 * The real stack an export needs: auth (tokens), boards (owner, title, background, links), realtime
 * (live document and image store, on PostgreSQL) and the export service itself, on one embedded
 * PostgreSQL with in-process events. Documents are written through a real y-websocket client.
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { WebsocketProvider } from 'y-websocket';
import { addArrow, addObject, type ArrowInput, type CanvasObjectInput } from '@wb/board-model';
import { createPool, type Pool } from '@wb/db';
import { createInProcessTransport, type EventTransport } from '@wb/events';
import { createLogger, createTokenVerifier, listen, parseConfig, type RunningServer } from '@wb/service-kit';
import { callJson, createBoard, createDatabase, registerUser, shareBoard } from '@wb/testkit';
import { AuthConfigSchema, createAuthService } from '../../auth/src/app.ts';
import { createBoardsService } from '../../boards/src/app.ts';
import { createRealtimeService } from '../../realtime/src/app.ts';
import { createBoardAccessClient } from '../../realtime/src/access.ts';
import { createPostgresImageStore } from '../../realtime/src/images/index.ts';
import { createPostgresStore, REALTIME_SCHEMA } from '../../realtime/src/store/postgres.ts';
import { createExportService, SCHEMA } from '../src/app.ts';
import { createInternalClients } from '../src/clients/internal.ts';
import type { ExportLimits } from '../src/config.ts';

const silent = createLogger('export-test', 'silent');

export interface Stack {
  exportBase: string;
  boardsBase: string;
  realtimeBase: string;
  transport: EventTransport;
  user(name?: string): Promise<{ id: string; token: string }>;
  board(
    owner: { token: string },
    opts?: { title?: string; roles?: Array<'viewer' | 'guest' | 'editor'>; background?: string },
  ): Promise<{ id: string; links: Record<string, string> }>;
  /** Writes objects and arrows into the live board through a real client and waits until realtime has them. */
  draw(boardId: string, token: string, objects: CanvasObjectInput[], arrows?: ArrowInput[]): Promise<void>;
  upload(boardId: string, token: string, bytes: Buffer): Promise<string>;
  exportCall(format: string, token: string | undefined, body: unknown): Promise<Response>;
  stop(): Promise<void>;
}

async function serve(
  app: http.RequestListener,
  upgrade?: (req: http.IncomingMessage, socket: import('node:stream').Duplex, head: Buffer) => void,
): Promise<RunningServer> {
  const server = http.createServer(app);
  if (upgrade) server.on('upgrade', upgrade);
  return listen(server, 0, '127.0.0.1');
}

export async function startStack(pgServerUrl: string, limits: Partial<ExportLimits> = {}): Promise<Stack> {
  const transport = createInProcessTransport();
  const pools: Pool[] = [];
  const pool = async (schema: string) => {
    const p = createPool({ url: await createDatabase(pgServerUrl), schema, max: 5 });
    pools.push(p);
    return p;
  };
  const auth = await createAuthService({
    pool: await pool('auth'),
    transport,
    logger: silent,
    config: parseConfig(AuthConfigSchema, { DATABASE_URL: 'postgres://unused/x', LOG_LEVEL: 'silent' }),
  });
  await auth.start();
  const authServer = await serve(auth.app);
  const authBase = `http://127.0.0.1:${authServer.port}`;
  const verifier = () => createTokenVerifier({ jwksUrl: `${authBase}/internal/jwks` });

  const boards = await createBoardsService({
    pool: await pool('boards'),
    transport,
    logger: silent,
    config: { http: { bodyLimit: '100kb' } },
    verifier: verifier(),
  });
  await boards.start();
  const boardsServer = await serve(boards.app);
  const boardsBase = `http://127.0.0.1:${boardsServer.port}`;

  const rtPool = await pool(REALTIME_SCHEMA);
  const realtime = await createRealtimeService({
    logger: silent,
    store: createPostgresStore(rtPool),
    verifier: verifier(),
    boards: createBoardAccessClient(boardsBase),
    transport,
    images: createPostgresImageStore(rtPool, REALTIME_SCHEMA),
  });
  await realtime.start();
  const realtimeServer = await serve(realtime.app, (req, socket, head) =>
    realtime.handleUpgrade!(req, socket, head),
  );
  const realtimeBase = `http://127.0.0.1:${realtimeServer.port}`;

  const exp = await createExportService({
    pool: await pool(SCHEMA),
    transport,
    logger: silent,
    verifier: verifier(),
    clients: createInternalClients({ boardsUrl: boardsBase, realtimeUrl: realtimeBase }),
    limits,
  });
  await exp.start();
  const exportServer = await serve(exp.app);
  const exportBase = `http://127.0.0.1:${exportServer.port}`;

  return {
    exportBase,
    boardsBase,
    realtimeBase,
    transport,
    async user(name = 'Анна') {
      const u = await registerUser(authBase, { name });
      return { id: u.id, token: u.token };
    },
    async board(owner, opts = {}) {
      const { id } = await createBoard(boardsBase, owner, { title: opts.title });
      if (opts.background)
        await callJson(boardsBase, 'PATCH', `/api/boards/${id}`, {
          token: owner.token,
          body: { background: opts.background },
        });
      const links = opts.roles?.length ? await shareBoard(boardsBase, owner, id, opts.roles) : {};
      return { id, links: links as Record<string, string> };
    },
    async draw(boardId, token, objects, arrows = []) {
      const doc = new Y.Doc();
      const provider = new WebsocketProvider(`ws://127.0.0.1:${realtimeServer.port}/yjs`, boardId, doc, {
        params: { token },
        WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket,
        disableBc: true,
      });
      await new Promise<void>((resolve) => provider.once('sync', () => resolve()));
      doc.transact(() => {
        for (const o of objects) addObject(doc, o);
        for (const a of arrows) addArrow(doc, a);
      });
      const want = objects.length + arrows.length;
      for (let i = 0; i < 200; i++) {
        const r = await callJson(realtimeBase, 'GET', `/internal/boards/${boardId}/state?format=json`);
        if (r.body.objects.length + r.body.arrows.length >= want) break;
        await new Promise((res) => setTimeout(res, 25));
      }
      provider.destroy();
    },
    async upload(boardId, token, bytes) {
      const res = await fetch(`${realtimeBase}/yjs/images/${boardId}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: new Uint8Array(bytes),
      });
      if (res.status !== 201) throw new Error(`upload answered ${res.status}`);
      return ((await res.json()) as { url: string }).url;
    },
    exportCall(format, token, body) {
      return fetch(`${exportBase}/api/export/${format}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    },
    async stop() {
      for (const s of [exportServer, realtimeServer, boardsServer, authServer]) await s.close();
      await exp.stop();
      await realtime.stop();
      await boards.stop();
      await auth.stop();
      for (const p of pools) await p.end();
    },
  };
}

export const newId = () => randomUUID();
