import { Router } from 'express';
import {
  CreateTagRequest,
  SetBoardTagsRequest,
  UpdateTagRequest,
  type TagAnswer,
  type TagsAnswer,
  isUuid,
} from '@wb/contracts';
import { withTransaction, type Queryable } from '@wb/db';
import { appError, currentUserId, idParam, parse } from '@wb/service-kit';
import { DEFAULT_TAG_COLOR, normalizeHexColor } from '../domain/colors.ts';
import * as tags from '../store/tags.ts';
import { ownBoardLocked, type RouteContext } from './context.ts';

const isUniqueViolation = (err: unknown) => (err as { code?: string })?.code === '23505';

async function ownTag(db: Queryable, id: string, owner: string) {
  if (!isUuid(id)) throw appError('TAG_NOT_FOUND');
  const t = await tags.getTag(db, id);
  if (!t || t.owner_id !== owner) throw appError('TAG_NOT_FOUND');
  return t;
}

export function tagsRouter(ctx: RouteContext): Router {
  const r = Router();
  const { pool } = ctx;

  r.get('/tags', ...ctx.auth, async (req, res) => {
    res.json({ tags: await tags.listTags(pool, currentUserId(req)) } satisfies TagsAnswer);
  });

  r.post('/tags', ...ctx.auth, async (req, res) => {
    const me = currentUserId(req);
    const body = parse(CreateTagRequest, req.body);
    const color = body.color ? normalizeHexColor(body.color)! : DEFAULT_TAG_COLOR;
    try {
      res.status(201).json({ tag: await tags.insertTag(pool, { ownerId: me, name: body.name, color }) } satisfies TagAnswer);
    } catch (err) {
      if (isUniqueViolation(err)) throw appError('TAG_ALREADY_EXISTS');
      throw err;
    }
  });

  r.put('/tags/:id', ...ctx.auth, async (req, res) => {
    const me = currentUserId(req);
    const body = parse(UpdateTagRequest, req.body);
    const t = await ownTag(pool, idParam(req, 'TAG_NOT_FOUND'), me);
    try {
      const tag = await tags.updateTag(pool, t.id, {
        name: body.name,
        color: body.color === undefined ? undefined : normalizeHexColor(body.color)!,
      });
      res.json({ tag } satisfies TagAnswer);
    } catch (err) {
      if (isUniqueViolation(err)) throw appError('TAG_ALREADY_EXISTS');
      throw err;
    }
  });

  // board_tags cascades: the tag disappears from every board at once.
  r.delete('/tags/:id', ...ctx.auth, async (req, res) => {
    const t = await ownTag(pool, idParam(req, 'TAG_NOT_FOUND'), currentUserId(req));
    await tags.deleteTag(pool, t.id);
    res.json({ message: 'Тег удален' });
  });

  r.get('/tags/board/:id', ...ctx.auth, async (req, res) => {
    const b = await ownBoardLocked(pool, idParam(req, 'BOARD_NOT_FOUND'), currentUserId(req), false);
    res.json({ tags: await tags.boardTags(pool, b.id) } satisfies TagsAnswer);
  });

  r.put('/tags/board/:id', ...ctx.auth, async (req, res) => {
    const me = currentUserId(req);
    const body = parse(SetBoardTagsRequest, req.body);
    const ids = [...new Set(body.tagIds)];
    const result = await withTransaction(pool, async (db) => {
      const b = await ownBoardLocked(db, idParam(req, 'BOARD_NOT_FOUND'), me);
      if (ids.some((id) => !isUuid(id))) throw appError('TAG_NOT_FOUND');
      // Key-share locks keep the tags alive until the links are written.
      const { rowCount } = await db.query('SELECT 1 FROM tags WHERE owner_id = $1 AND id = ANY($2::uuid[]) FOR KEY SHARE', [me, ids]);
      if (rowCount !== ids.length) throw appError('TAG_NOT_FOUND');
      await tags.replaceBoardTags(db, b.id, ids);
      return tags.boardTags(db, b.id);
    });
    res.json({ tags: result } satisfies TagsAnswer);
  });

  return r;
}
