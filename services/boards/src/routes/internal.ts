import { Router } from 'express';
import { BoardAccessRequest, isUuid, type BoardAccessAnswer } from '@wb/contracts';
import { parse, pathParam } from '@wb/service-kit';
import { resolveAccess } from '../domain/roles.ts';
import { lockBoard } from '../store/boards.ts';
import type { RouteContext } from './context.ts';

/**
 * For the realtime service only (never routed by the gateway): the role a user id and/or a share
 * token has on a board, the stronger of the two. Unknown boards and bad ids answer role 'none'
 * rather than an error, so realtime has one shape to handle.
 */
export function internalRouter(ctx: RouteContext): Router {
  const r = Router();
  r.post('/boards/:id/access', async (req, res) => {
    const body = parse(BoardAccessRequest, req.body ?? {});
    const none: BoardAccessAnswer = { role: 'none', board: null };
    const id = pathParam(req);
    if (!isUuid(id)) return void res.json(none);
    const b = await lockBoard(ctx.pool, id, false);
    if (!b) return void res.json(none);
    const decision = resolveAccess({
      ownerId: b.owner_id,
      userId: body.userId && isUuid(body.userId) ? body.userId : null,
      share: { enabled: b.is_link_sharing_enabled, viewer: b.viewer_token, guest: b.guest_token, editor: b.editor_token },
      token: body.shareToken || null,
    });
    const answer: BoardAccessAnswer = decision.ok
      ? { role: decision.role, board: { id: b.id, owner_id: b.owner_id, title: b.title, background: b.background } }
      : { role: 'none', board: { id: b.id, owner_id: b.owner_id, title: b.title, background: b.background } };
    res.json(answer);
  });
  return r;
}
