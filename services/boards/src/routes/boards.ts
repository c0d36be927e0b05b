import { randomBytes } from 'node:crypto';
import { Router } from 'express';
import {
  CameraPosition,
  CameraQuery,
  CreateBoardRequest,
  LinkRequest,
  ListBoardsQuery,
  MultipleLinksRequest,
  SharingRequest,
  UpdateBoardRequest,
  BOARD_TEXTS,
  type PublicBoardView,
  type BoardAnswer,
  type BoardPageAnswer,
  type BoardsListAnswer,
  isUuid,
} from '@wb/contracts';
import { withTransaction, type PoolClient, type Queryable } from '@wb/db';
import { appError, currentUserId, idParam, optionalUserId, parse, pathParam, signedInUser } from '@wb/service-kit';
import { boardLimits, canvasLimits } from '../domain/limits.ts';
import { resolveAccess, type ShareState } from '../domain/roles.ts';
import {
  configuredRoles,
  revokedRoles,
  rotateSingleLink,
  sameShareState,
  setRoleLinks,
  setSharing,
  setSingleLink,
  SINGLE_LINK_ROLE,
} from '../domain/sharing.ts';
import { publishBoardCreated, publishBoardDeleted, publishBoardUpdated, publishSharingChanged } from '../events/publish.ts';
import * as boards from '../store/boards.ts';
import { listVersion } from '../store/list-versions.ts';
import { getCamera, saveCamera } from '../store/cameras.ts';
import { getEntitlement, userName } from '../store/projections.ts';
import { ownBoardLocked, ownFolder, shareTokenOf, type RouteContext } from './context.ts';

/** 32 random bytes, base64url: unguessable, and safe in a URL query without escaping. */
export const newShareToken = () => randomBytes(32).toString('base64url');

async function ownerView(db: Queryable, id: string) {
  const row = await boards.getBoard(db, id);
  if (!row) throw appError('BOARD_NOT_FOUND');
  return boards.toListItem(row);
}

const publicUrl = (boardId: string, token: string | null) => (token ? `/board/${boardId}?token=${token}` : null);

/**
 * Reads a board for whoever asks: the login, the share token, or both (the stronger role wins).
 * Credentials are checked before existence, so an anonymous caller learns nothing about ids.
 */
async function readAccess(db: Queryable, id: string, user: string | null, token: string | null) {
  if (!user && !token) throw appError('TOKEN_MISSING');
  if (!isUuid(id)) throw appError('BOARD_NOT_FOUND');
  const row = await boards.getBoard(db, id);
  if (!row) throw appError('BOARD_NOT_FOUND');
  const decision = resolveAccess({ ownerId: row.owner_id, userId: user, share: boards.shareState(row), token });
  if (!decision.ok) throw appError(decision.reason);
  return { row, role: decision.role };
}

/** Realtime's synchronous revocation: the dead links' sockets are closed before we answer. */
export type RevokeLinks = (boardId: string, tokens: string[]) => Promise<void>;

export function boardsRouter(ctx: RouteContext, revokeLinks?: RevokeLinks): Router {
  const r = Router();
  const { pool } = ctx;
  // Board answers carry share tokens (the owner's view): no cache along the way may keep them.
  r.use((_req, res, next) => {
    res.setHeader('cache-control', 'no-store');
    next();
  });

  r.get('/boards', ...ctx.auth, async (req, res) => {
    const me = currentUserId(req);
    const q = parse(ListBoardsQuery, req.query);
    const tagIds = q.tags ? [...new Set(q.tags.split(',').map((t) => t.trim()).filter(Boolean))] : [];
    const folderId = q.folder_id === undefined || q.folder_id === '' ? undefined : q.folder_id === 'none' ? null : q.folder_id;
    // An id that is not UUID-shaped matches nothing, exactly like an unknown one.
    const impossible = (typeof folderId === 'string' && !isUuid(folderId)) || tagIds.some((t) => !isUuid(t));
    const search = q.search?.trim().toLowerCase() || undefined;
    const after = q.cursor ? boards.decodeCursor(q.cursor) : undefined;
    if (after === null) throw appError('VALIDATION_ERROR', { message: BOARD_TEXTS.badCursor, fields: { cursor: BOARD_TEXTS.badCursor } });
    // A repeated load is served from the cache while the owner's list version stands (src/list-cache.ts).
    // Every part is spelled out: JSON turns an undefined array item into null, which would make
    // "all boards" (no folder filter) and "boards without a folder" (folder null) one key.
    const call = JSON.stringify(['boards', folderId === undefined ? 'all' : folderId === null ? 'none' : `f:${folderId}`, search ?? '', tagIds, q.cursor ?? '', q.limit, impossible]);
    if (ctx.listCache.has(me, call)) {
      const kept = ctx.listCache.get(me, call, await listVersion(pool, me));
      if (kept) return void res.type('application/json').send(kept);
    }
    const page = await boards.listBoardsPage(pool, me, {
      folderId,
      search,
      tagIds,
      after,
      limit: q.limit,
      // An id that is not UUID-shaped matches nothing; the counts and limits still answer.
      none: impossible,
    });
    const rest: Omit<BoardsListAnswer, 'boards'> = {
      limits: boardLimits(page.entitlement, page.current),
      nextCursor: page.next ? boards.encodeCursor(page.next) : null,
    };
    // The page arrives as JSON text from PostgreSQL and goes out as is (its shape: test/answer-shapes.test.ts).
    const body = Buffer.from(`{"boards":${page.boardsJson},"limits":${JSON.stringify(rest.limits)},"nextCursor":${JSON.stringify(rest.nextCursor)}}`);
    ctx.listCache.set(me, call, page.version, body);
    res.type('application/json').send(body);
  });

  r.post('/boards', ...ctx.auth, async (req, res) => {
    const me = currentUserId(req);
    const body = parse(CreateBoardRequest, req.body);
    const board = await withTransaction(pool, async (client) => {
      // One creator at a time per user: the count and the insert must see the same world.
      await client.query(`SELECT pg_advisory_xact_lock(hashtextextended('boards:create:' || $1::text, 0))`, [me]);
      const folderId = body.folder_id ? (await ownFolder(client, body.folder_id, me, true)).id : null;
      const limits = boardLimits(await getEntitlement(client, me), await boards.countBoards(client, me));
      if (!limits.canCreate) throw appError('BOARD_LIMIT_REACHED');
      const id = await boards.insertBoard(client, { ownerId: me, title: body.title, folderId });
      await publishBoardCreated(client, { id, owner_id: me, title: body.title, folder_id: folderId });
      return ownerView(client, id);
    });
    res.status(201).json({ board } satisfies BoardAnswer);
  });

  r.get('/boards/:id', ...ctx.maybeAuth, async (req, res) => {
    const me = optionalUserId(req);
    const { row, role } = await readAccess(pool, pathParam(req), me, shareTokenOf(req));
    const item = boards.toListItem(row);
    const view: PublicBoardView = role === 'owner' ? { ...item, userRole: role } : boards.linkHolderView(item, role);
    const ent = await getEntitlement(pool, row.owner_id);
    res.json({
      board: view,
      canvasLimits: canvasLimits(ent, row.background),
      currentUser: me ? { id: me, name: (await userName(pool, me)) ?? signedInUser(req).name } : null,
    } satisfies BoardPageAnswer);
  });

  r.patch('/boards/:id', ...ctx.auth, async (req, res) => {
    const me = currentUserId(req);
    const body = parse(UpdateBoardRequest, req.body);
    const board = await withTransaction(pool, async (client) => {
      const b = await ownBoardLocked(client, idParam(req, 'BOARD_NOT_FOUND'), me);
      await boards.updateBoard(client, b.id, body);
      await publishBoardUpdated(client, {
        ...b,
        title: body.title ?? b.title,
        background: body.background ?? b.background,
      });
      return ownerView(client, b.id);
    });
    res.json({ board } satisfies BoardAnswer);
  });

  r.delete('/boards/:id', ...ctx.auth, async (req, res) => {
    const me = currentUserId(req);
    await withTransaction(pool, async (client) => {
      const b = await ownBoardLocked(client, idParam(req, 'BOARD_NOT_FOUND'), me);
      await boards.deleteBoard(client, b.id);
      await publishBoardDeleted(client, b);
    });
    res.json({ message: 'Доска удалена' });
  });

  /** Applies a sharing transition to the caller's board; the event names the roles whose old links died. */
  const changeSharing = async (boardId: string, owner: string, next: (s: ShareState) => ShareState) => {
    let dead: string[] = [];
    const view = await withTransaction(pool, async (client: PoolClient) => {
      const b = await ownBoardLocked(client, boardId, owner);
      const before = boards.shareState(b);
      const after = next(before);
      if (!sameShareState(before, after)) {
        await boards.saveShareState(client, b.id, after);
        const revoked = revokedRoles(before, after);
        dead = revoked.map((r) => before[r]).filter((t): t is string => Boolean(t));
        await publishSharingChanged(client, b.id, { enabled: after.enabled, enabledRoles: configuredRoles(after), revokedRoles: revoked });
      }
      return ownerView(client, b.id);
    });
    // After the commit (a socket admitted now already gets the new answer), before the owner's
    // answer; the sharing_changed event stays the backstop if realtime cannot be reached.
    if (dead.length > 0) await revokeLinks?.(view.id, dead);
    return view;
  };

  r.post('/boards/:id/link', ...ctx.auth, async (req, res) => {
    const { enabled } = parse(LinkRequest, req.body);
    const board = await changeSharing(idParam(req, 'BOARD_NOT_FOUND'), currentUserId(req), (s) => setSingleLink(s, enabled, newShareToken));
    res.json({ board, publicUrl: board.is_link_sharing_enabled ? publicUrl(board.id, board.viewer_token_hash) : null });
  });

  r.post('/boards/:id/link/rotate', ...ctx.auth, async (req, res) => {
    const board = await changeSharing(idParam(req, 'BOARD_NOT_FOUND'), currentUserId(req), (s) => rotateSingleLink(s, newShareToken));
    res.json({ board, publicUrl: publicUrl(board.id, board[`${SINGLE_LINK_ROLE}_token_hash`]) });
  });

  r.put('/boards/:id/sharing', ...ctx.auth, async (req, res) => {
    const { enabled } = parse(SharingRequest, req.body);
    const board = await changeSharing(idParam(req, 'BOARD_NOT_FOUND'), currentUserId(req), (s) => setSharing(s, enabled, newShareToken));
    res.json({ board } satisfies BoardAnswer);
  });

  r.post('/boards/:id/multiple-links', ...ctx.auth, async (req, res) => {
    const body = parse(MultipleLinksRequest, req.body);
    const board = await changeSharing(idParam(req, 'BOARD_NOT_FOUND'), currentUserId(req), (s) =>
      setRoleLinks(s, body.enabledRoles, body.rotate === true, newShareToken),
    );
    res.json({ board } satisfies BoardAnswer);
  });

  // Boards have no invited members in this product: the owner is the only member; link holders are anonymous.
  r.get('/boards/:id/members', ...ctx.auth, async (req, res) => {
    const me = currentUserId(req);
    const b = await ownBoardLocked(pool, idParam(req, 'BOARD_NOT_FOUND'), me, false);
    res.json({ members: [{ id: b.owner_id, name: (await userName(pool, b.owner_id)) ?? signedInUser(req).name, role: 'owner' }] });
  });

  // Camera positions are per logged-in user; token-only visitors get 401 (the page skips the call for them).
  r.get('/boards/:id/camera', ...ctx.auth, async (req, res) => {
    const me = currentUserId(req);
    const { row } = await readAccess(pool, pathParam(req), me, shareTokenOf(req));
    const { device } = parse(CameraQuery, req.query);
    res.json({ data: await getCamera(pool, row.id, me, device) });
  });

  r.put('/boards/:id/camera', ...ctx.auth, async (req, res) => {
    const me = currentUserId(req);
    const body = parse(CameraPosition, req.body);
    const { row } = await readAccess(pool, pathParam(req), me, shareTokenOf(req));
    try {
      await saveCamera(pool, row.id, me, body);
    } catch (err) {
      // The board was deleted between the access check and the write.
      if ((err as { code?: string }).code === '23503') throw appError('BOARD_NOT_FOUND');
      throw err;
    }
    res.json({ data: body });
  });

  return r;
}
