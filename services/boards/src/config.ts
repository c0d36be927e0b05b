import { z } from 'zod';
import { env, serviceConfig } from '@wb/service-kit';

/** The boards service's environment (common settings in serviceConfig). */
export const BoardsConfigSchema = serviceConfig(3002, {
  DATABASE_URL: env.url(),
  DATABASE_POOL_MAX: env.int(10, { min: 1, max: 200 }),
  /** Auth's public keys, e.g. http://auth:3001/internal/jwks */
  AUTH_JWKS_URL: env.url(),
  BODY_LIMIT: env.string('100kb'),
  /** Memory for recent dashboard answers (src/list-cache.ts); 0 turns the cache off. */
  LIST_CACHE_MB: env.number(32, { min: 0, max: 4096 }),
  /** Realtime, told synchronously when share links die (POST /internal/boards/:id/revoke). */
  REALTIME_URL: env.optionalUrl(),
});

export type BoardsConfig = z.infer<typeof BoardsConfigSchema>;

/** What createBoardsService itself needs from the configuration (the runner reads the rest). */
export interface BoardsServiceConfig {
  http: { bodyLimit: string };
  /** Bytes of recent dashboard answers kept (0: none). */
  listCacheBytes?: number;
}
