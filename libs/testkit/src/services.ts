/**
 * Some of the product's services, in this test process, built from their definitions the way the
 * embedded runner builds them (deploy/embedded): a test of one service starts the others it talks
 * to by package name, so no service's code or tests import another service (lint enforces it).
 * Each service listens on a loopback port of its own, its /internal/* routes guarded by this run's
 * internal credential as in a cluster; the public routes answer as they would behind the gateway.
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import type { EventTransport } from '@wb/events';
import {
  createLogger,
  createRegistry,
  createRevocationList,
  listen,
  parseConfig,
  type AnyServiceDefinition,
  type RunnableService,
  type RunningServer,
} from '@wb/service-kit';
import { poolSet, verifierFor } from '@wb/service-kit/run';

export interface StartedServices {
  /** Each service's loopback address by name (/internal/* there needs `internalToken`). */
  urls: Record<string, string>;
  /** The running services by name (tests may reach service-specific helpers through them). */
  services: Record<string, RunnableService>;
  internalToken: string;
  /** Stops in reverse start order and closes their pools. */
  stop(): Promise<void>;
}

export interface StartServicesOptions {
  /** A database of its own (createDatabase); each service keeps to its schema in it. */
  databaseUrl: string;
  transport: EventTransport;
  /** More environment for every service (e.g. REALTIME_URL for boards). */
  env?: Record<string, string | undefined>;
  logLevel?: string;
}

async function loadDefinition(pkg: string): Promise<AnyServiceDefinition> {
  const mod = (await import(pkg)) as { default?: AnyServiceDefinition };
  if (!mod.default?.create) throw new Error(`${pkg} does not export a service definition as default`);
  return mod.default;
}

/** Starts the services of `packages` (e.g. ['@wb/auth', '@wb/boards']) in that order. */
export async function startServices(packages: string[], opts: StartServicesOptions): Promise<StartedServices> {
  const internalToken = randomBytes(24).toString('base64url');
  const logLevel = opts.logLevel ?? 'silent';
  const definitions = await Promise.all(packages.map(loadDefinition));

  // Listeners first: every service's environment names where the others are.
  const targets: http.RequestListener[] = [];
  const servers: RunningServer[] = [];
  for (const [i] of definitions.entries()) {
    targets[i] = (_req, res) => void res.writeHead(503).end();
    servers.push(
      await listen(
        http.createServer((req, res) => targets[i]!(req, res)),
        0,
        '127.0.0.1',
      ),
    );
  }
  const urls = Object.fromEntries(definitions.map((d, i) => [d.name, `http://127.0.0.1:${servers[i]!.port}`]));
  const env: Record<string, string | undefined> = {
    PORT: '0',
    LOG_LEVEL: logLevel,
    DATABASE_URL: opts.databaseUrl,
    INTERNAL_TOKEN: internalToken,
    ...Object.assign({}, ...definitions.map((d) => d.reachedBy?.(urls[d.name]!) ?? {})),
    ...opts.env,
  };

  const started: RunnableService[] = [];
  const pools: Array<ReturnType<typeof poolSet>> = [];
  const services: Record<string, RunnableService> = {};
  // One process: every verifier reads the list auth writes to, as in the embedded mode.
  const revocations = createRevocationList();
  const stop = async () => {
    for (const s of servers) await s.close().catch(() => {});
    for (const s of [...started].reverse()) await s.stop().catch(() => {});
    for (const p of pools) await p.end();
  };
  try {
    for (const [i, definition] of definitions.entries()) {
      const set = poolSet(opts.databaseUrl, definition.name);
      pools.push(set);
      const service = await definition.create(parseConfig(definition.configSchema, env), {
        logger: createLogger(definition.name, logLevel),
        pool: set.pool,
        transport: opts.transport,
        nats: async () => undefined,
        verifier: verifierFor(env.AUTH_JWKS_URL, internalToken, revocations),
        revocations,
        internalToken,
        registry: createRegistry(definition.name),
      });
      await service.start();
      started.push(service);
      services[definition.name] = service;
      targets[i] = service.app;
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { urls, services, internalToken, stop };
}
