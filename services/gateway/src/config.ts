import { z } from 'zod';
import { env, serviceConfig } from '@wb/service-kit';

/** The gateway's environment (common settings in serviceConfig). A missing <SERVICE>_URL answers 503. */
export const GatewayConfigSchema = serviceConfig(8080, {
  STATIC_DIR: env.string('frontend/dist'),
  AUTH_URL: env.optionalUrl(),
  BOARDS_URL: env.optionalUrl(),
  REALTIME_URL: env.optionalUrl(),
  /**
   * Several realtime replicas, comma-separated base URLs (a host name may resolve to one address
   * per replica: a Kubernetes headless Service). Each board's sockets then go to one of them
   * (rendezvous hashing on the board id) instead of wherever REALTIME_URL's balancer puts them.
   */
  REALTIME_REPLICA_URLS: z
    .string()
    .optional()
    .transform((v) => v?.split(',').map((u) => u.trim()).filter(Boolean) ?? [])
    .pipe(z.array(z.string().url().regex(/^https?:\/\//, 'http(s) URL'))),
  BILLING_URL: env.optionalUrl(),
  ADMIN_URL: env.optionalUrl(),
  EXPORT_URL: env.optionalUrl(),
  /**
   * How long a service may take to answer a WebSocket upgrade (realtime answers at once and admits
   * afterwards). One that does not (a hung or stopped process: its kernel still accepts the
   * connection) has the socket closed, so the client's provider tries again, and with several
   * realtime replicas it is passed over.
   */
  UPGRADE_TIMEOUT_MS: env.int(10_000, { min: 1 }),
  /** Largest request body passed on, in bytes (exports and imports stay well under it). */
  BODY_LIMIT_BYTES: env.int(2 * 1024 * 1024, { min: 1 }),
  /** Board image uploads (POST /yjs/images/:boardId); realtime checks its own, possibly lower, limit. */
  IMAGE_BODY_LIMIT_BYTES: env.int(10 * 1024 * 1024, { min: 1 }),
  /**
   * Proxies in front of the gateway whose X-Forwarded-For is believed (express 'trust proxy' syntax:
   * 'loopback', '10.0.0.0/8, 10.1.2.3', a hop count). Unset: none, the peer address is the client's.
   */
  TRUST_PROXY: env.optionalString(),
  /** Login, register and refresh attempts per client address per minute; 0 turns the limit off. */
  AUTH_RATE_LIMIT_PER_MIN: env.int(30, { min: 0 }),
  /**
   * The gateway's own /metrics, on a port of their own: the public port never serves them.
   * Unset: the gateway's metrics are not served at all (the embedded mode).
   */
  METRICS_PORT: env.optionalPort(),
});
export type GatewayConfig = z.infer<typeof GatewayConfigSchema>;
