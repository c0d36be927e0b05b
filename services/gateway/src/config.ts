import { z } from 'zod';
import { env } from '@wb/service-kit';

const optionalUrl = z
  .string()
  .url()
  .optional()
  .or(z.literal('').transform(() => undefined));

export const GatewayConfigSchema = z.object({
  PORT: env.port(8080),
  LOG_LEVEL: env.logLevel(),
  STATIC_DIR: z.string().default('frontend/dist'),
  AUTH_URL: optionalUrl,
  BOARDS_URL: optionalUrl,
  REALTIME_URL: optionalUrl,
  BILLING_URL: optionalUrl,
  ADMIN_URL: optionalUrl,
  EXPORT_URL: optionalUrl,
  /** Largest request body passed on, in bytes (exports and imports stay well under it). */
  BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(2 * 1024 * 1024),
  /** Login, register and refresh attempts per client address per minute; 0 turns the limit off. */
  AUTH_RATE_LIMIT_PER_MIN: z.coerce.number().int().min(0).default(30),
});
export type GatewayConfig = z.infer<typeof GatewayConfigSchema>;
