import type { RequestHandler } from 'express';
import { isUuid } from '@wb/contracts';
import type { Pool, Queryable } from '@wb/db';
import { appError, optionalAuth, requireAuth, type TokenVerifier } from '@wb/service-kit';
import type { ListCache } from '../list-cache.ts';
import { lockBoard, type LockedBoard } from '../store/boards.ts';
import { getFolder, type FolderRef } from '../store/folders.ts';
import { upsertUserName } from '../store/projections.ts';

export interface RouteContext {
  pool: Pool;
  verifier: TokenVerifier;
  /** requireAuth + the name claim remembered for owner_name. */
  auth: RequestHandler[];
  /** optionalAuth + the same. */
  maybeAuth: RequestHandler[];
  /** Recent dashboard answers, checked against the owner's list version. */
  listCache: ListCache;
}

const NAME_CACHE_MAX = 50_000;

/**
 * Keeps the users projection fresh from the token's name claim, so owner_name works before
 * user.registered arrives. The in-memory cache avoids a write per request.
 */
function rememberName(pool: Pool): RequestHandler {
  const seen = new Map<string, string>();
  return async (req, _res, next) => {
    // eslint-disable-next-line no-restricted-syntax -- a middleware after optionalAuth: a visitor is no error here
    const u = req.user;
    if (u && seen.get(u.sub) !== u.name) {
      await upsertUserName(pool, u.sub, u.name);
      if (seen.size >= NAME_CACHE_MAX) seen.clear();
      seen.set(u.sub, u.name);
    }
    next();
  };
}

export function createRouteContext(pool: Pool, verifier: TokenVerifier, listCache: ListCache): RouteContext {
  const remember = rememberName(pool);
  return { pool, verifier, auth: [requireAuth(verifier), remember], maybeAuth: [optionalAuth(verifier), remember], listCache };
}

/**
 * The caller's board: 404 when missing (or not an id), 403 when someone else's. Row-locked for
 * the transaction unless `lock` is false (plain reads outside a transaction).
 */
export async function ownBoardLocked(db: Queryable, id: string, owner: string, lock = true): Promise<LockedBoard> {
  if (!isUuid(id)) throw appError('BOARD_NOT_FOUND');
  const b = await lockBoard(db, id, lock);
  if (!b) throw appError('BOARD_NOT_FOUND');
  if (b.owner_id !== owner) throw appError('ACCESS_DENIED');
  return b;
}

/**
 * The caller's folder. Someone else's folder answers exactly like a missing one, so folder ids
 * of other users cannot be probed. `keyShare` keeps it from being deleted until the transaction ends.
 */
export async function ownFolder(db: Queryable, id: string, owner: string, keyShare = false): Promise<FolderRef> {
  if (!isUuid(id)) throw appError('FOLDER_NOT_FOUND');
  const f = await getFolder(db, id, keyShare);
  if (!f || f.owner_id !== owner) throw appError('FOLDER_NOT_FOUND');
  return f;
}

export const SHARE_TOKEN_HEADER = 'x-share-token';

export function shareTokenOf(req: { headers: Record<string, string | string[] | undefined> }): string | null {
  const h = req.headers[SHARE_TOKEN_HEADER];
  const v = Array.isArray(h) ? h[0] : h;
  return v && v.trim() ? v.trim() : null;
}
