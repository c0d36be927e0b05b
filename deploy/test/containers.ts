import { randomBytes } from 'node:crypto';
import { freePort } from '@wb/db';
import { createDatabase, startMailpit, startMongo, startNats, type MailpitHandle, type ManagedProcess } from '@wb/testkit';
import { reachEnvOf } from '@wb/topology';
import { buildImages, IMAGE_SERVICES, type BuiltImage } from '../images/build.ts';
import { ensureEngine, type Engine } from '../images/engine.ts';
import { runArgs } from '../images/run.ts';
import { eventually } from './clients.ts';

export interface RunningContainer {
  id: string;
  name: string;
  service: string;
  port: number;
}

export interface ContainerInspect {
  Id: string;
  Name: string;
  Config: { User: string; Healthcheck?: { Test: string[] }; Labels?: Record<string, string>; Env?: string[] };
  HostConfig: { ReadonlyRootfs: boolean };
  State: { Status: string; Running: boolean; ExitCode: number; Health?: { Status: string } };
}

export interface ProductContainers {
  engine: Engine;
  /** `wb.run=<prefix>`: on this run's containers only (besides the platform's label), and the admin container's DOCKER_LABEL, so its update never reaches another run's containers on the same engine. */
  runLabel: string;
  built: BuiltImage[];
  /** By service name; a second replica as `<service>-2`. */
  containers: Map<string, RunningContainer>;
  inspect(id: string): ContainerInspect;
  ready(port: number): Promise<boolean>;
  stop(): Promise<void>;
}

const ready = async (port: number) => (await fetch(`http://127.0.0.1:${port}/ready`, { signal: AbortSignal.timeout(5_000) }).catch(() => undefined))?.ok === true;

/**
 * The product as containers on the real Docker engine (INFRA.md §2): every image built by
 * `npm run images`'s code, one container per service (plus `replicas`: second containers of those
 * services), each on a free port of the host's network, against real PostgreSQL (the test run's),
 * NATS, FerretDB and Mailpit on this machine. `watchEngine` mounts the engine's socket into the admin
 * container (CONTAINER_RUNTIME=docker). Containers start one after another, each ready first.
 */
export async function startProductContainers(o: { watchEngine?: boolean; replicas?: string[]; env?: Record<string, string> } = {}): Promise<ProductContainers> {
  const engine = await ensureEngine();
  const prefix = `t${randomBytes(4).toString('hex')}`;
  const runLabel = `wb.run=${prefix}`;
  const containers = new Map<string, RunningContainer>();
  let nats: ManagedProcess | undefined;
  let mongo: ManagedProcess | undefined;
  let mailpit: MailpitHandle | undefined;
  const inspect = (id: string) => (JSON.parse(engine.docker(['inspect', id], { quiet: true })) as ContainerInspect[])[0]!;

  const stop = async () => {
    for (const c of containers.values()) {
      try {
        engine.docker(['rm', '-f', c.id], { quiet: true });
      } catch {
        /* already gone (an update replaced it): the name is removed below */
      }
    }
    // Whatever carries this run's prefix (containers an update recreated under new ids).
    const left = engine.docker(['ps', '-aq', '--filter', `name=${prefix}-`], { quiet: true }).split('\n').filter(Boolean);
    if (left.length) engine.docker(['rm', '-f', ...left], { quiet: true });
    await nats?.stop();
    await mongo?.stop();
    await mailpit?.stop();
    await engine.stop();
  };

  try {
    const built = await buildImages({ engine, log: () => {} });
    // Over TCP: the test server's Unix socket directory is not inside the containers.
    const databaseUrl = (await createDatabase(process.env.WB_TEST_PG_URL!)).replace(/\?host=[^&]*/, '');
    nats = await startNats();
    mongo = await startMongo();
    mailpit = await startMailpit();
    const ports = Object.fromEntries(await Promise.all(IMAGE_SERVICES.map(async (s) => [s.name, await freePort()] as const)));
    const reach = Object.assign({}, ...IMAGE_SERVICES.map((s) => reachEnvOf(s, `http://127.0.0.1:${ports[s.name]}`))) as Record<string, string>;
    const env: Record<string, string> = {
      ...reach,
      DATABASE_URL: databaseUrl,
      NATS_URL: nats.url,
      MONGO_URL: `${mongo.url}whiteboard`,
      INTERNAL_TOKEN: randomBytes(24).toString('base64url'),
      SMTP_URL: mailpit.smtpUrl,
      AUTH_RATE_LIMIT_PER_MIN: '0',
      DOCKER_LABEL: runLabel,
      ...o.env,
    };
    const wanted = [...IMAGE_SERVICES.map((s) => ({ key: s.name, service: s.name, replica: 1 })), ...(o.replicas ?? []).map((s) => ({ key: `${s}-2`, service: s, replica: 2 }))];
    for (const w of wanted) {
      const port = w.replica === 1 ? ports[w.service]! : await freePort();
      const name = `${prefix}-${w.key}`;
      const id = engine
        .docker(
          runArgs({
            service: w.service,
            name,
            port,
            env,
            replicaId: `${w.service}-${w.replica}`,
            engineSocket: o.watchEngine ? engine.socketPath : undefined,
            extra: ['--label', runLabel],
          }),
          { quiet: true },
        )
        .trim();
      containers.set(w.key, { id, name, service: w.service, port });
      await eventually(
        async () => {
          if (!inspect(id).State.Running) throw new Error(`${w.key} exited: ${engine.logs(id)}`);
          return ready(port);
        },
        90_000,
        `${w.key} to be ready`,
      );
    }
    return { engine, runLabel, built, containers, inspect, ready, stop };
  } catch (err) {
    await stop().catch(() => {});
    throw err;
  }
}
