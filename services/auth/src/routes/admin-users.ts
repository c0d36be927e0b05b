import { Router, type Request, type RequestHandler } from 'express';
import { ADMIN_USERS_LIMIT, AdminSearchQuery, AdminUserUpdateInput, type AdminUsersAnswer } from '@wb/contracts';
import { appError, currentUserId, idParam, parse, requireAdmin, requireAuth } from '@wb/service-kit';
import { searchPattern, toAdminUser, type Actor } from '../domain/admin-users.ts';
import { adminDeleteUser, adminUpdateUser, listUsers } from '../store/admin-users.ts';
import { findUserById } from '../store/users.ts';
import type { AuthContext } from './context.ts';

const actorOf = (req: Request): Actor => (req as Request & { actor: Actor }).actor;

/**
 * /api/admin/users (spec §2 Пользователи, §7 Administration). The gateway refuses visitors and
 * non-administrators already; auth checks again, and against its own table rather than the
 * token's claim alone: an administrator demoted or deleted a moment ago holds a token that still
 * says admin for up to its lifetime.
 */
export function adminUsersRouter(ctx: AuthContext): Router {
  const r = Router();
  const { pool } = ctx;
  const currentAdmin: RequestHandler = async (req, _res, next) => {
    const row = await findUserById(pool, currentUserId(req));
    if (!row) throw appError('TOKEN_INVALID');
    if (!row.is_admin) throw appError('ADMIN_REQUIRED');
    (req as Request & { actor: Actor }).actor = { id: row.id, name: row.name };
    next();
  };
  r.use(requireAuth(ctx.verifier), requireAdmin, currentAdmin);

  r.get('/', async (req, res) => {
    const { search } = parse(AdminSearchQuery, req.query);
    const { rows, total } = await listUsers(pool, searchPattern(search), ADMIN_USERS_LIMIT);
    const answer: AdminUsersAnswer = { users: rows.map(toAdminUser), total };
    res.json(answer);
  });

  r.put('/:id', async (req, res) => {
    const id = idParam(req, 'USER_NOT_FOUND');
    const body = parse(AdminUserUpdateInput, req.body);
    const r = await adminUpdateUser(pool, id, { name: body.name, email: body.email }, actorOf(req), new Date());
    if (!r) throw appError('USER_NOT_FOUND');
    ctx.users.set(r.after);
    // A new address (not a letter-case change) is unproven: its owner gets the link, as after their own change.
    if (r.before.email.toLowerCase() !== r.after.email.toLowerCase()) {
      await ctx.emails.sendVerification(r.after).catch((err: unknown) => ctx.logger.error({ err }, 'verification mail not queued'));
    }
    res.json({ user: toAdminUser(r.after) });
  });

  r.delete('/:id', async (req, res) => {
    const id = idParam(req, 'USER_NOT_FOUND');
    const actor = actorOf(req);
    if (id === actor.id) throw appError('CANNOT_DELETE_SELF');
    const revoked = await adminDeleteUser(pool, id, actor, new Date());
    if (!revoked) throw appError('USER_NOT_FOUND');
    await ctx.accountEnded(id, revoked);
    res.status(204).end();
  });

  return r;
}
