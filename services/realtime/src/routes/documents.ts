import { Router, type Request } from 'express';
import * as Y from 'yjs';
import { readBoard } from '@wb/board-model';
import { appError, bearerToken, parse, type TokenVerifier } from '@wb/service-kit';
import type { BoardAccessClient } from '../access.ts';
import { snapshotStats } from '../domain/snapshots.ts';
import { identityOrThrow, resolveIdentity } from '../extensions/auth.ts';
import type { Identity } from '../core/types.ts';
import type { RealtimeServer } from '../core/server.ts';
import type { Persistence } from '../extensions/persistence.ts';
import type { DocumentStore } from '../store/types.ts';
import { BoardParams, ForceSaveRequest, ReactionRequest, RevokeRequest, StateQuery } from './schemas.ts';

export interface DocumentRoutesDeps {
  server: RealtimeServer;
  persistence: Persistence;
  store: DocumentStore;
  verifier: TokenVerifier;
  boards: BoardAccessClient;
  /** Tells every replica holding the board to drop its copy and make clients resync. */
  reset(boardId: string): Promise<void>;
  /** Closes the sockets of dead links (null = all links) and drops their queued updates. */
  revoke(boardId: string, tokens: string[] | null): Promise<number>;
}

export function documentRoutes(deps: DocumentRoutesDeps): Router {
  const r = Router();

  /** The caller's identity on a board, from a Bearer access token or a share token. */
  async function identify(req: Request, boardId: string, opts: { allowShare: boolean }): Promise<Identity> {
    const token = bearerToken(req);
    const share = opts.allowShare ? req.get('x-share-token') : undefined;
    if (!token && !share) throw appError('TOKEN_MISSING');
    if (!opts.allowShare && token && !token.includes('.')) throw appError('TOKEN_INVALID');
    const result = await resolveIdentity(deps, boardId, { token, share, anon: req.get('x-anon-id'), address: req.ip });
    return identityOrThrow(result);
  }

  async function owner(req: Request, boardId: string): Promise<Identity> {
    const who = await identify(req, boardId, { allowShare: false });
    if (who.role !== 'owner') throw appError('OWNER_REQUIRED');
    return who;
  }

  r.post('/yjs/force-save', async (req, res) => {
    const body = parse(ForceSaveRequest, req.body);
    await owner(req, body.boardId);
    const result = await deps.server.withRoom(body.boardId, (room) => deps.persistence.compact(room));
    if (body.clearData) await deps.reset(body.boardId);
    res.json({ duplicate: result.duplicate, objects_count: result.objectsCount, version: result.version });
  });

  r.post('/yjs/reactions', async (req, res) => {
    const body = parse(ReactionRequest, req.body);
    const who = await identify(req, body.boardId, { allowShare: true });
    const outcome = await deps.server.withRoom(body.boardId, async (room) => {
      const o = deps.server.react(room, who, body);
      // Answered once the change is in the store, like every other change.
      if (o.ok) await deps.server.settled(room);
      return o;
    });
    if (!outcome.ok) throw appError(outcome.code);
    res.json({ added: outcome.added });
  });

  r.get('/api/boards/:id/debug/snapshots', async (req, res) => {
    const { id } = parse(BoardParams, req.params);
    await owner(req, id);
    const snapshots = await deps.store.listSnapshots(id);
    res.json({ snapshots, stats: snapshotStats(snapshots) });
  });

  r.delete('/api/boards/:id/debug/empty-snapshots', async (req, res) => {
    const { id } = parse(BoardParams, req.params);
    await owner(req, id);
    const deleted = await deps.store.deleteEmptySnapshots(id);
    res.json({ message: `Удалено пустых снапшотов: ${deleted}`, deleted });
  });

  // Internal: boards calls this before answering a link rotation or sharing change, so the dead
  // links' sockets are closed (and their queued edits dropped) before the owner sees the answer.
  r.post('/internal/boards/:id/revoke', async (req, res) => {
    const { id } = parse(BoardParams, req.params);
    const body = parse(RevokeRequest, req.body ?? {});
    const closed = await deps.revoke(id, body.tokens ?? null);
    res.json({ closed });
  });

  // Internal (never routed by the gateway): export reads the live state, unflushed updates included.
  r.get('/internal/boards/:id/state', async (req, res) => {
    const { id } = parse(BoardParams, req.params);
    const { format } = parse(StateQuery, req.query);
    const answer = await deps.server.withRoom(id, (room) =>
      format === 'json' ? readBoard(room.doc) : Y.encodeStateAsUpdate(room.doc),
    );
    if (answer instanceof Uint8Array) {
      res.type('application/octet-stream').send(Buffer.from(answer));
    } else {
      res.json(answer);
    }
  });

  return r;
}
