import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { freePort } from '@wb/db';
import type { AnyServiceDefinition } from '@wb/service-kit';
import { findBinary, startMailpit, tempDir, waitForPort } from '@wb/testkit';
import { startDetachedPostgres } from '../embedded/postgres.ts';
import { GATEWAY_PACKAGE, loadDefinition, loadServices, nodeFlagsOf, reachEnv, repoRootFrom, SERVICE_PACKAGES } from '../services.ts';
import { spawnOwned, type OwnedProcess } from './processes.ts';

const repoRoot = repoRootFrom(import.meta.url);

export interface ServiceProcess {
  name: string;
  port: number;
  url: string;
  child: OwnedProcess['child'];
  /** SIGKILL, as a crash would. */
  kill(): Promise<void>;
  /** SIGTERM: the service stops in its own order (runService) and exits. */
  stop(): Promise<void>;
}

export interface ClusterHandle {
  url: string;
  databaseUrl: string;
  natsUrl: string;
  mongoUrl: string;
  internalToken: string;
  /** Mailpit's web UI and API, where the cluster's mails land (absent when SMTP_URL was given). */
  mailpitUrl?: string;
  services: Record<string, ServiceProcess>;
  /** The realtime replicas the gateway routes to (services.realtime is the first). */
  realtimeReplicas: ServiceProcess[];
  /** Starts one more realtime replica outside the gateway's list (tests connect to it directly). */
  startRealtimeReplica(): Promise<ServiceProcess>;
  /** Gateway first, then the services in reverse start order, then NATS, FerretDB and PostgreSQL. */
  stop(): Promise<void>;
}

function startService(pkg: string, name: string, env: Record<string, string | undefined>, port: number, logs: boolean): ServiceProcess {
  const owned = spawnOwned(
    name,
    process.execPath,
    [...nodeFlagsOf(pkg), '--import', 'tsx', '--import', '@wb/service-kit/tracing-preload', path.join('deploy', 'local', 'service-process.ts'), pkg],
    {
      cwd: repoRoot,
      env: { ...process.env, LOG_LEVEL: logs ? 'info' : 'warn', OTEL_SERVICE_NAME: name, ...env, PORT: String(port) },
      stdio: ['ignore', logs ? 'inherit' : 'ignore', 'inherit'],
    },
  );
  return { name, port, url: `http://127.0.0.1:${port}`, child: owned.child, kill: owned.kill, stop: owned.stop };
}

async function startInfraProcess(name: string, binary: string, args: (port: number) => string[]): Promise<OwnedProcess & { port: number }> {
  const port = await freePort();
  const proc = spawnOwned(name, findBinary(binary), args(port), { stdio: 'ignore' });
  await Promise.race([waitForPort(port), proc.exited.then(() => Promise.reject(new Error(`${name} exited at start`)))]);
  return { ...proc, port };
}

/**
 * The local cluster mode of DESIGN.md: every service of deploy/services.ts in its own process, a
 * real nats-server with JetStream, FerretDB as the MongoDB of realtime, PostgreSQL for the
 * relational services. Every child runs in its own process group, so only this runner stops them,
 * in order.
 */
export async function startCluster(
  opts: {
    port?: number;
    logs?: boolean;
    staticDir?: string;
    /** Realtime replicas behind the gateway (default 1); with more, each board's sockets go to one of them. */
    realtimeReplicas?: number;
    /** Extra environment for every service (ADMIN_EMAIL, rate limits...), as the embedded runner's `env`. */
    env?: Record<string, string | undefined>;
  } = {},
): Promise<ClusterHandle> {
  const logs = opts.logs ?? false;
  const infra: Array<{ stop(): Promise<void> }> = [];
  const started: ServiceProcess[] = [];
  const services: Record<string, ServiceProcess> = {};
  let stopping: Promise<void> | undefined;
  const stopAll = () =>
    (stopping ??= (async () => {
      for (const s of [...started].reverse()) await s.stop();
      for (const i of [...infra].reverse()) await i.stop();
    })());
  try {
    const pg = await startDetachedPostgres({ dataDir: path.join(await tempDir('cluster-pg'), 'data') });
    infra.push(pg);
    const natsDir = await tempDir('cluster-nats');
    const nats = await startInfraProcess('nats', 'nats-server', (port) => ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', natsDir]);
    infra.push(nats);
    const mongoDir = await tempDir('cluster-mongo');
    const mongo = await startInfraProcess('ferretdb', 'wb-ferretdb', (port) => [
      '--listen-addr',
      `127.0.0.1:${port}`,
      '--handler',
      'sqlite',
      '--sqlite-url',
      `file:${mongoDir}/`,
    ]);
    infra.push(mongo);
    // Development mail (password reset, e-mail verification), as the embedded runner does.
    const mailpit = process.env.SMTP_URL ? undefined : await startMailpit({ detached: true });
    if (mailpit) infra.push(mailpit);
    const natsUrl = `nats://127.0.0.1:${nats.port}`;
    const mongoUrl = `mongodb://127.0.0.1:${mongo.port}/`;
    const internalToken = randomBytes(32).toString('base64url');

    const definitions = await loadServices();
    const ports = await Promise.all(definitions.map(() => freePort()));
    const placed: Array<[AnyServiceDefinition, string]> = definitions.map((d, i) => [d, `http://127.0.0.1:${ports[i]}`]);
    const env = {
      DATABASE_URL: pg.url,
      NATS_URL: natsUrl,
      MONGO_URL: `${mongoUrl}whiteboard`,
      INTERNAL_TOKEN: internalToken,
      SMTP_URL: process.env.SMTP_URL ?? mailpit?.smtpUrl,
      PUBLIC_URL: process.env.PUBLIC_URL ?? (opts.port ? `http://localhost:${opts.port}` : undefined),
      // Only when asked for (the tests set it): the test provider grants plans without payment.
      PAYMENTS_TEST_PROVIDER: process.env.PAYMENTS_TEST_PROVIDER,
      ...opts.env,
      ...reachEnv(placed),
    };
    const launch = async (pkg: string, name: string, extra: Record<string, string>, port?: number) => {
      const p = port ?? (await freePort());
      const svc = startService(pkg, name, { ...env, ...extra }, p, logs);
      started.push(svc);
      await Promise.race([
        waitForPort(p, 60_000),
        new Promise((_, reject) => svc.child.once('exit', (code) => reject(new Error(`${name} exited with ${code} at start`)))),
      ]);
      return svc;
    };
    for (const [i, d] of definitions.entries()) {
      services[d.name] = await launch(SERVICE_PACKAGES[i]!, d.name, { REPLICA_ID: `${d.name}-1` }, ports[i]);
    }
    let replicas = 1;
    const launchRealtimeReplica = () => {
      replicas++;
      return launch('@wb/realtime', 'realtime', { REPLICA_ID: `realtime-${replicas}` });
    };
    const realtimeReplicas = [services.realtime!];
    while (realtimeReplicas.length < (opts.realtimeReplicas ?? 1)) realtimeReplicas.push(await launchRealtimeReplica());
    const gateway = await loadDefinition(GATEWAY_PACKAGE);
    services[gateway.name] = await launch(
      GATEWAY_PACKAGE,
      gateway.name,
      {
        STATIC_DIR: opts.staticDir ?? path.join(repoRoot, 'frontend', 'dist'),
        AUTH_RATE_LIMIT_PER_MIN: '0',
        ...(realtimeReplicas.length > 1 ? { REALTIME_REPLICA_URLS: realtimeReplicas.map((r) => r.url).join(',') } : {}),
      },
      opts.port,
    );

    return {
      url: services[gateway.name]!.url,
      databaseUrl: pg.url,
      natsUrl,
      mongoUrl,
      internalToken,
      mailpitUrl: mailpit?.apiUrl,
      services,
      realtimeReplicas,
      startRealtimeReplica: launchRealtimeReplica,
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
