import { Router } from 'express';
import {
  CreateFolderRequest,
  MoveBoardRequest,
  MoveToPositionRequest,
  ReorderFoldersRequest,
  UpdateFolderRequest,
  type BoardAnswer,
  type FolderAnswer,
  type FoldersAnswer,
  isUuid,
} from '@wb/contracts';
import { withTransaction, type PoolClient } from '@wb/db';
import { appError, currentUserId, idParam, parse } from '@wb/service-kit';
import { DEFAULT_FOLDER_COLOR, normalizeHexColor } from '../domain/colors.ts';
import { applyReorder, buildFolderTree, densePositions, isCyclicMove, placeRelative, promoteChildren } from '../domain/folders.ts';
import { publishBoardUpdated } from '../events/publish.ts';
import * as boards from '../store/boards.ts';
import * as folders from '../store/folders.ts';
import { listVersion } from '../store/list-versions.ts';
import { ownBoardLocked, ownFolder, type RouteContext } from './context.ts';

const MSG_TARGET_ELSEWHERE = 'Папка-ориентир находится в другой родительской папке';
const MSG_NOT_SIBLING = 'Папка не принадлежит указанной родительской папке';
const MSG_SAME_TARGET = 'Папку нельзя поставить относительно самой себя';

/** Resolves a parent reference: null = root, otherwise one of the caller's folders. */
async function parentRef(db: PoolClient, id: string | null | undefined, owner: string): Promise<string | null> {
  if (id === null || id === undefined) return null;
  return (await ownFolder(db, id, owner)).id;
}

/** Refuses a move that would put a folder under itself or its descendant (checked under the tree lock). */
async function assertAcyclic(db: PoolClient, folderId: string, newParent: string | null) {
  const chain = newParent ? await folders.ancestorChain(db, newParent) : [];
  if (isCyclicMove(folderId, newParent, chain)) throw appError('CYCLIC_DEPENDENCY');
}

/** Rewrites a parent's children to the given order, dense from 0. */
async function renumber(db: PoolClient, owner: string, parentId: string | null, order?: string[]) {
  const current = await folders.siblings(db, owner, parentId);
  const positions = new Map(current.map((s) => [s.id, s.sort_order]));
  await folders.writePositions(db, densePositions(order ?? current.map((s) => s.id), positions));
}

async function tree(db: PoolClient | import('@wb/db').Pool, owner: string) {
  return buildFolderTree(await folders.listFolderRows(db, owner));
}

async function folderView(db: PoolClient, id: string) {
  const row = await folders.folderWithCount(db, id);
  if (!row) throw appError('FOLDER_NOT_FOUND');
  return { ...row, children: [] };
}

export function foldersRouter(ctx: RouteContext): Router {
  const r = Router();
  const { pool } = ctx;

  /** Every structural change of a user's tree runs in one transaction under the user's tree lock. */
  const inTree = <T>(owner: string, fn: (db: PoolClient) => Promise<T>) =>
    withTransaction(pool, async (db) => {
      await folders.lockFolderTree(db, owner);
      return fn(db);
    });

  r.get('/folders', ...ctx.auth, async (req, res) => {
    const me = currentUserId(req);
    // A repeated load is served from the cache while the owner's list version stands (src/list-cache.ts).
    // The version is read before the rows: an answer newer than its version only costs a rebuild later.
    const version = await listVersion(pool, me);
    const kept = ctx.listCache.get(me, 'folders', version);
    if (kept) return void res.type('application/json').send(kept);
    const body = Buffer.from(JSON.stringify({ folders: await tree(pool, me) } satisfies FoldersAnswer));
    ctx.listCache.set(me, 'folders', version, body);
    res.type('application/json').send(body);
  });

  r.post('/folders', ...ctx.auth, async (req, res) => {
    const me = currentUserId(req);
    const body = parse(CreateFolderRequest, req.body);
    const color = body.color ? normalizeHexColor(body.color)! : DEFAULT_FOLDER_COLOR;
    const folder = await inTree(me, async (db) => {
      const parentId = await parentRef(db, body.parent_id, me);
      const sortOrder = (await folders.siblings(db, me, parentId)).length;
      const id = await folders.insertFolder(db, { ownerId: me, name: body.name, parentId, color, sortOrder });
      return folderView(db, id);
    });
    res.status(201).json({ folder } satisfies FolderAnswer);
  });

  r.patch('/folders/:id', ...ctx.auth, async (req, res) => {
    const me = currentUserId(req);
    const body = parse(UpdateFolderRequest, req.body);
    const folder = await inTree(me, async (db) => {
      const f = await ownFolder(db, idParam(req, 'FOLDER_NOT_FOUND'), me);
      if (body.parent_id !== undefined) {
        const newParent = await parentRef(db, body.parent_id, me);
        if (newParent !== f.parent_id) {
          await assertAcyclic(db, f.id, newParent);
          const end = (await folders.siblings(db, me, newParent)).length;
          await folders.setFolderParent(db, f.id, newParent, end);
          await renumber(db, me, f.parent_id);
        }
      }
      if (body.name !== undefined || body.color !== undefined) {
        await folders.updateFolderFields(db, f.id, {
          name: body.name,
          color: body.color === undefined ? undefined : normalizeHexColor(body.color)!,
        });
      }
      return folderView(db, f.id);
    });
    res.json({ folder } satisfies FolderAnswer);
  });

  /**
   * Only this folder goes. Its boards move to the root ('Доски из папки будут перемещены в корень');
   * its subfolders (with their boards) move up to its parent, in its place: nothing a user made
   * disappears without being named (docs/decisions.md).
   */
  r.delete('/folders/:id', ...ctx.auth, async (req, res) => {
    const me = currentUserId(req);
    await inTree(me, async (db) => {
      const f = await ownFolder(db, idParam(req, 'FOLDER_NOT_FOUND'), me);
      const moved = await folders.boardsInFolders(db, [f.id]);
      await folders.moveBoardsToRoot(db, [f.id]);
      for (const b of moved) await publishBoardUpdated(db, { ...b, folder_id: null });
      const parentOrder = (await folders.siblings(db, me, f.parent_id)).map((s) => s.id);
      const children = (await folders.siblings(db, me, f.id)).map((s) => s.id);
      await folders.reparentChildren(db, f.id, f.parent_id);
      await folders.deleteFolders(db, [f.id]);
      await renumber(db, me, f.parent_id, promoteChildren(parentOrder, f.id, children));
    });
    res.json({ message: 'Папка удалена' });
  });

  r.post('/folders/move-board', ...ctx.auth, async (req, res) => {
    const me = currentUserId(req);
    const body = parse(MoveBoardRequest, req.body);
    const board = await withTransaction(pool, async (db) => {
      const b = await ownBoardLocked(db, body.board_id, me);
      const folderId = body.folder_id === null ? null : (await ownFolder(db, body.folder_id, me, true)).id;
      if (folderId !== b.folder_id) {
        await boards.setBoardFolder(db, b.id, folderId);
        await publishBoardUpdated(db, { ...b, folder_id: folderId });
      }
      const row = await boards.getBoard(db, b.id);
      return boards.toListItem(row!);
    });
    res.json({ board } satisfies BoardAnswer);
  });

  r.post('/folders/move-to-position', ...ctx.auth, async (req, res) => {
    const me = currentUserId(req);
    const body = parse(MoveToPositionRequest, req.body);
    const result = await inTree(me, async (db) => {
      const f = await ownFolder(db, body.folder_id, me);
      const target = await ownFolder(db, body.target_folder_id, me);
      if (f.id === target.id) throw appError('VALIDATION_ERROR', { message: MSG_SAME_TARGET, fields: { target_folder_id: MSG_SAME_TARGET } });
      const newParent = await parentRef(db, body.parent_id, me);
      if (target.parent_id !== newParent) {
        throw appError('VALIDATION_ERROR', { message: MSG_TARGET_ELSEWHERE, fields: { target_folder_id: MSG_TARGET_ELSEWHERE } });
      }
      await assertAcyclic(db, f.id, newParent);
      const current = await folders.siblings(db, me, newParent);
      const order = placeRelative(current.map((s) => s.id), f.id, target.id, body.position)!;
      if (newParent !== f.parent_id) {
        await folders.setFolderParent(db, f.id, newParent, order.indexOf(f.id));
        await renumber(db, me, f.parent_id);
      }
      const positions = new Map(current.map((s) => [s.id, s.sort_order]));
      if (newParent !== f.parent_id) positions.set(f.id, order.indexOf(f.id));
      await folders.writePositions(db, densePositions(order, positions));
      return tree(db, me);
    });
    res.json({ folders: result } satisfies FoldersAnswer);
  });

  r.post('/folders/reorder', ...ctx.auth, async (req, res) => {
    const me = currentUserId(req);
    const body = parse(ReorderFoldersRequest, req.body);
    const result = await inTree(me, async (db) => {
      const parentId = await parentRef(db, body.parent_id, me);
      const current = await folders.siblings(db, me, parentId);
      const order = applyReorder(current.map((s) => s.id), body.folder_ids);
      if (!order) {
        // Unknown (or someone else's) ids are "not found"; the caller's folders under another parent are a bad request.
        for (const id of body.folder_ids) if (!isUuid(id)) throw appError('FOLDER_NOT_FOUND');
        for (const id of body.folder_ids) await ownFolder(db, id, me);
        throw appError('VALIDATION_ERROR', { message: MSG_NOT_SIBLING, fields: { folder_ids: MSG_NOT_SIBLING } });
      }
      await folders.writePositions(db, densePositions(order, new Map(current.map((s) => [s.id, s.sort_order]))));
      return tree(db, me);
    });
    res.json({ folders: result } satisfies FoldersAnswer);
  });

  return r;
}
