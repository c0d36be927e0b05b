import { Router, type RequestHandler } from 'express';
import type { Pool } from '@wb/db';
import type { Logger } from '@wb/service-kit';
import type { AdminConfig } from '../config.ts';
import { appError } from '@wb/service-kit';
import type { ContainerRuntime } from '../runtime/index.ts';

/** /api/admin/{system,docker,update}: the host, the containers and the system update. */
export function systemRouter(_deps: { admin: RequestHandler[]; runtime: ContainerRuntime; pool: Pool; config: AdminConfig; logger: Logger }): Router {
  const r = Router();
  r.all(['/system', '/system/refresh-cache', '/docker', '/update', '/update/status'], (_req, _res) => {
    throw appError('SERVICE_UNAVAILABLE');
  });
  return r;
}
