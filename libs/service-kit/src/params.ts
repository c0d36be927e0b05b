import { isUuid, type ErrorCode } from '@wb/contracts';
import { appError } from './errors.ts';

/**
 * A path id (`:id`, or the parameter `name`) that must be a UUID. One that is not names nothing:
 * the answer is `notFound` (the resource's own 404, as for an unknown id), never a validation
 * error or a SQL cast failure. Returned lowercased, as PostgreSQL prints uuids.
 */
export function idParam(req: ParamsOf, notFound: ErrorCode, name = 'id'): string {
  const id = pathParam(req, name);
  if (!isUuid(id)) throw appError(notFound);
  return id.toLowerCase();
}

/** Express 5 types params loosely once handlers are spread (`...ctx.auth`). */
type ParamsOf = { params: Record<string, unknown> };

/**
 * A path parameter as sent, for routes that must check something else first (a visitor without a
 * token hears 401 before an unknown board's 404) and then validate it with `isUuid`.
 */
export function pathParam(req: ParamsOf, name = 'id'): string {
  const v = req.params[name];
  const first = Array.isArray(v) ? v[0] : v;
  return typeof first === 'string' ? first : '';
}
