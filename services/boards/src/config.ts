import { z } from 'zod';
import { env } from '@wb/service-kit';

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() ? v.trim() : undefined));

export const BoardsConfigSchema = z
  .object({
    PORT: env.port(3002),
    DATABASE_URL: env.url(),
    DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
    /** Absent: whoever builds the service supplies the transport (embedded mode, tests). */
    NATS_URL: optionalString,
    /** Auth's public keys, e.g. http://auth:3001/internal/jwks */
    AUTH_JWKS_URL: env.url(),
    BODY_LIMIT: z.string().default('100kb'),
    LOG_LEVEL: env.logLevel(),
  })
  .transform((c) => ({
    port: c.PORT,
    database: { url: c.DATABASE_URL, poolMax: c.DATABASE_POOL_MAX },
    nats: { url: c.NATS_URL },
    auth: { jwksUrl: c.AUTH_JWKS_URL },
    http: { bodyLimit: c.BODY_LIMIT },
    logLevel: c.LOG_LEVEL,
  }));

export type BoardsConfig = z.infer<typeof BoardsConfigSchema>;

/** What the service itself needs from the configuration (main.ts reads the rest). */
export type BoardsServiceConfig = Pick<BoardsConfig, 'http'>;
