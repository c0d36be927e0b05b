/**
 * The export service on a real PostgreSQL and event transport. Boards and realtime are the
 * `InternalClients` the service takes: here a small in-test directory of boards (owner, title,
 * background, document, images), so each test states exactly what those services would answer.
 * The same calls against the real services, through the gateway, are in deploy/test/export.test.ts.
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import * as Y from 'yjs';
import { addArrow, addObject, readBoard, type ArrowInput, type CanvasObjectInput } from '@wb/board-model';
import { createPool, type Pool } from '@wb/db';
import { createInProcessTransport, type EventTransport } from '@wb/events';
import {
  createLogger,
  createTokenVerifier,
  listen,
  type RunningServer,
  type TokenVerifier,
} from '@wb/service-kit';
import { createDatabase, testTokens } from '@wb/testkit';
import { createExportService, SCHEMA } from '../src/app.ts';
import type { InternalClients } from '../src/clients/internal.ts';
import type { ExportLimits } from '../src/config.ts';

const silent = createLogger('export-test', 'silent');

export interface TestBoard {
  id: string;
  ownerId: string;
  title: string;
  background: string;
  doc: Y.Doc;
  /** userId → role other than owner (e.g. an editor). */
  roles: Map<string, 'editor' | 'viewer' | 'guest'>;
  images: Map<string, { mime: string; bytes: Buffer }>;
}

export interface Stack {
  base: string;
  transport: EventTransport;
  /** Every call the service made to the internal clients, for "never fetched" checks. */
  calls: string[];
  board(ownerId: string, opts?: { title?: string; background?: string }): TestBoard;
  draw(board: TestBoard, objects: CanvasObjectInput[], arrows?: ArrowInput[]): void;
  /** A signed access token for `userId`. */
  token(userId: string): Promise<string>;
  exportCall(format: string, token: string | undefined, body: unknown): Promise<Response>;
  stop(): Promise<void>;
}

/** Real ES256 access tokens, verified against an in-process key set as every service verifies auth's. */
async function tokenKit(): Promise<{ verifier: TokenVerifier; sign(userId: string): Promise<string> }> {
  const tokens = await testTokens();
  return {
    verifier: createTokenVerifier({ jwks: tokens.jwks }),
    sign: (userId) => tokens.sign({ sub: userId, name: 'Тест', email: 'test@example.com', admin: false }),
  };
}

export async function startStack(pgServerUrl: string, limits: Partial<ExportLimits> = {}): Promise<Stack> {
  const transport = createInProcessTransport();
  const pool: Pool = createPool({ url: await createDatabase(pgServerUrl), schema: SCHEMA, max: 5 });
  const boards = new Map<string, TestBoard>();
  const calls: string[] = [];
  const clients: InternalClients = {
    async access(boardId, userId) {
      calls.push(`access ${boardId}`);
      const b = boards.get(boardId);
      if (!b) return { role: 'none', board: null };
      const board = { id: b.id, owner_id: b.ownerId, title: b.title, background: b.background };
      return { role: b.ownerId === userId ? 'owner' : (b.roles.get(userId) ?? 'none'), board };
    },
    async state(boardId) {
      calls.push(`state ${boardId}`);
      return readBoard(boards.get(boardId)!.doc);
    },
    async image(boardId, hash) {
      calls.push(`image ${boardId} ${hash}`);
      return boards.get(boardId)?.images.get(hash) ?? null;
    },
  };
  const tokens = await tokenKit();
  const service = await createExportService({
    pool,
    transport,
    logger: silent,
    verifier: tokens.verifier,
    clients,
    limits,
  });
  await service.start();
  const server: RunningServer = await listen(http.createServer(service.app), 0, '127.0.0.1');
  const base = `http://127.0.0.1:${server.port}`;
  return {
    base,
    transport,
    calls,
    board(ownerId, opts = {}) {
      const b: TestBoard = {
        id: randomUUID(),
        ownerId,
        title: opts.title ?? 'Доска',
        background: opts.background ?? 'white',
        doc: new Y.Doc(),
        roles: new Map(),
        images: new Map(),
      };
      boards.set(b.id, b);
      return b;
    },
    draw(board, objects, arrows = []) {
      board.doc.transact(() => {
        for (const o of objects) addObject(board.doc, o);
        for (const a of arrows) addArrow(board.doc, a);
      });
    },
    token: (userId) => tokens.sign(userId),
    exportCall(format, token, body) {
      return fetch(`${base}/api/export/${format}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    },
    async stop() {
      await server.close();
      await service.stop();
      await pool.end();
    },
  };
}
