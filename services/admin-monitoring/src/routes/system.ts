import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import type { DockerData, SystemData } from '@wb/contracts';
import type { Pool } from '@wb/db';
import { currentUserId, parse, signedInUser, type Logger } from '@wb/service-kit';
import type { AdminConfig } from '../config.ts';
import { readCache } from '../domain/cache.ts';
import { statusOf } from '../domain/update.ts';
import type { ContainerRuntime } from '../runtime/index.ts';
import { recordAdminAction } from '../store/audit.ts';
import { endStaleUpdates, latestUpdate } from '../store/update.ts';
import { hostReader, type HostData } from '../system/host.ts';
import type { UpdateRunner } from '../system/update.ts';

/** Spec §8 'System': the text the panel shows when the host cannot be read. */
export const SYSTEM_READ_ERROR = 'Ошибка получения данных системы';
export const CONTAINERS_READ_ERROR = 'Не удалось получить данные контейнеров';
/** What POST /system/refresh-cache answers (docs/decisions.md, "System data"). */
export const CACHE_DROPPED_MESSAGE = 'Кеш очищен';

/** Neither call takes input: a body with any field is refused (400) rather than ignored. */
const NoInput = z.strictObject({}, { error: 'Этот запрос не принимает параметров' });

const emptyHost = (): HostData => ({
  cpu: { usage: 0, cores: 0 },
  memory: { usage: 0, used: 0, total: 0 },
  disk: { usage: 0, used: 0, total: 0, mount: '' },
});

/** /api/admin/{system,docker,update}: the host, the containers and the system update. */
export function systemRouter(deps: {
  admin: RequestHandler[];
  runtime: ContainerRuntime;
  pool: Pool;
  config: AdminConfig;
  logger: Logger;
  updates: UpdateRunner;
}): Router {
  const { admin, runtime, pool, config, logger, updates } = deps;
  const readHost = hostReader(config.DISK_PATH);
  const host = readCache<HostData>(
    () =>
      readHost().catch((err: unknown) => {
        logger.warn({ err }, 'reading the host failed');
        return { ...emptyHost(), error: SYSTEM_READ_ERROR };
      }),
    config.MONITOR_CACHE_MS,
    { keep: (v) => !v.error },
  );
  const containers = readCache(
    () =>
      runtime.listContainers().catch((err: unknown) => {
        // Adapters never throw by contract; one that does still gets the answer's shape.
        logger.warn({ err }, 'listing containers failed');
        return { containers: [], error: CONTAINERS_READ_ERROR };
      }),
    config.MONITOR_CACHE_MS,
    { keep: (v) => !v.error },
  );

  const actor = (req: Parameters<RequestHandler>[0]) => {
    const u = signedInUser(req);
    return { actorId: u.sub, actorName: u.name };
  };

  const r = Router();
  r.get('/system', ...admin, async (_req, res) => {
    const { value, cached, at } = await host.get();
    const body: SystemData = { ...value, cached, cacheTime: at.toISOString() };
    res.json(body);
  });

  r.get('/docker', ...admin, async (_req, res) => {
    const { value, cached, at } = await containers.get();
    const body: DockerData = {
      running: value.containers.filter((c) => c.state === 'running').length,
      total: value.containers.length,
      cached,
      cacheTime: at.toISOString(),
      containers: value.containers,
      runtime: runtime.name,
      ...(value.error ? { error: value.error } : {}),
    };
    res.json(body);
  });

  r.post('/system/refresh-cache', ...admin, async (req, res) => {
    parse(NoInput, req.body ?? {});
    host.drop();
    containers.drop();
    await recordAdminAction(pool, {
      ...actor(req),
      action: 'system.cache_refreshed',
      target: { type: 'system', id: null, label: 'Кеш данных системы' },
      before: null,
      after: null,
      at: new Date().toISOString(),
    });
    res.json({ message: CACHE_DROPPED_MESSAGE });
  });

  r.post('/update', ...admin, async (req, res) => {
    parse(NoInput, req.body ?? {});
    await updates.start(currentUserId(req), async (client) => {
      await recordAdminAction(client, {
        ...actor(req),
        action: 'system.update_started',
        target: { type: 'system', id: null, label: 'Обновление системы' },
        before: null,
        after: { runtime: runtime.name },
        at: new Date().toISOString(),
      });
    });
    res.status(202).json(statusOf(await latestUpdate(pool)));
  });

  r.get('/update/status', ...admin, async (_req, res) => {
    await endStaleUpdates(pool);
    res.json(statusOf(await latestUpdate(pool)));
  });
  return r;
}
