import { readFileSync } from 'node:fs';
import type Docker from 'dockerode';
import type { Logger } from '@wb/service-kit';
import type { RestartStep } from './types.ts';

/**
 * The Docker update (docs/decisions.md "Docker update"): each of the platform's running containers
 * is recreated from its own inspected configuration, one at a time. The new one starts beside the
 * old (under `<name>.next`); only when it is healthy — and, on the host's network, listening on the
 * port itself (SO_REUSEPORT lets both listen) — is the old one stopped and removed and the new one
 * renamed. This service's own container comes last: the new one is up before the old one stops.
 */

const NEXT = '.next';
const RETIRED = '.retired';
const POLL_MS = 500;

const bare = (name: string) => name.replace(/^\//, '');

/** A container an interrupted update left behind (a `.next` that never took over, a `.retired` that stopped). */
export const isLeftover = (name: string): boolean => bare(name).endsWith(NEXT) || bare(name).endsWith(RETIRED);

export async function removeLeftovers(docker: Docker, ids: string[], logger?: Logger): Promise<void> {
  for (const id of ids) {
    await docker
      .getContainer(id)
      .remove({ force: true })
      .catch((err: unknown) => logger?.warn({ err, id }, 'could not remove a container left by an update'));
  }
}

/** The id of the container this process runs in, if any: its bind mounts name it (cgroup v1 and v2 alike). */
export function ownContainerId(): string | undefined {
  for (const file of ['/proc/self/mountinfo', '/proc/self/cgroup']) {
    try {
      const m = /\/(?:containers|docker)[/-]([0-9a-f]{64})/.exec(readFileSync(file, 'utf8'));
      if (m) return m[1];
    } catch {
      /* not Linux, or not readable */
    }
  }
  return undefined;
}

/** Sockets listening on `port` in this network namespace (/proc/net/tcp{,6}); null where /proc cannot tell. */
export function listenersOn(port: number): number | null {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  let count = 0;
  let read = false;
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
      read = true;
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // local_address is ADDR:PORT in hex; state 0A is LISTEN.
      if (cols[1]?.endsWith(`:${hex}`) && cols[3] === '0A') count++;
    }
  }
  return read ? count : null;
}

/** The port the service listens on: its PORT setting, else its only exposed port. */
export function servicePort(info: Docker.ContainerInspectInfo): number | undefined {
  const env = info.Config.Env?.find((e) => e.startsWith('PORT='));
  const fromEnv = env ? Number(env.slice(5)) : NaN;
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  const exposed = Object.keys(info.Config.ExposedPorts ?? {});
  return exposed.length === 1 ? Number.parseInt(exposed[0]!, 10) || undefined : undefined;
}

const stopTimeout = (info: Docker.ContainerInspectInfo) => (info.Config as { StopTimeout?: number }).StopTimeout ?? 10;

const hasHealthcheck = (info: Docker.ContainerInspectInfo) => {
  const test = info.Config.Healthcheck?.Test;
  return !!test?.length && test[0] !== 'NONE';
};

/** The same container again: its configuration, host configuration and networks, under another name. */
export function recreateOptions(info: Docker.ContainerInspectInfo, name: string): Docker.ContainerCreateOptions {
  const mode = info.HostConfig.NetworkMode ?? 'default';
  const { Hostname, Domainname, ...config } = info.Config as Docker.ContainerInspectInfo['Config'] & { Domainname?: string };
  // The host's network gives the host's name; a generated name is the old container's id.
  const keepHostname = mode !== 'host' && !info.Id.startsWith(Hostname);
  const networks = Object.entries(info.NetworkSettings?.Networks ?? {});
  return {
    ...config,
    ...(keepHostname ? { Hostname, Domainname } : {}),
    name,
    HostConfig: info.HostConfig,
    ...(mode === 'host' || mode === 'none' || !networks.length
      ? {}
      : {
          NetworkingConfig: {
            EndpointsConfig: Object.fromEntries(networks.map(([net, e]) => [net, { Aliases: e.Aliases, IPAMConfig: e.IPAMConfig, Links: e.Links }])),
          },
        }),
  } as Docker.ContainerCreateOptions;
}

class PortTaken extends Error {}

interface PlanDeps {
  docker: Docker;
  label: string;
  logger?: Logger;
  healthTimeoutMs: number;
}

export async function dockerRestartPlan(deps: PlanDeps): Promise<RestartStep[]> {
  const { docker } = deps;
  const all = await docker.listContainers({ all: true, filters: { label: [deps.label] } });
  const leftovers = all.filter((c) => isLeftover(c.Names[0] ?? '') && c.State !== 'running');
  await removeLeftovers(docker, leftovers.map((c) => c.Id), deps.logger);
  const self = ownContainerId();
  const running = all
    .filter((c) => c.State === 'running' && !isLeftover(c.Names[0] ?? ''))
    .map((c) => ({ id: c.Id, name: bare(c.Names[0] ?? c.Id), self: c.Id === self }))
    .sort((a, b) => Number(a.self) - Number(b.self) || a.name.localeCompare(b.name));
  return running.map((c) => ({
    name: `Перезапуск контейнера ${c.name}`,
    run: () => recreate(deps, c),
  }));
}

async function recreate(deps: PlanDeps, target: { id: string; name: string; self: boolean }): Promise<void> {
  const { docker, logger } = deps;
  const old = docker.getContainer(target.id);
  let info: Docker.ContainerInspectInfo;
  try {
    info = await old.inspect();
  } catch (err) {
    throw new Error(`контейнер ${target.name} не найден: ${(err as Error).message}`, { cause: err });
  }
  const name = bare(info.Name);
  const port = servicePort(info);
  const hostNet = info.HostConfig.NetworkMode === 'host';
  // A `.next` of an interrupted update would hold the name.
  await docker
    .getContainer(name + NEXT)
    .remove({ force: true })
    .catch(() => {});
  const before = hostNet && port ? listenersOn(port) : null;
  const fresh = await docker.createContainer(recreateOptions(info, name + NEXT));
  await fresh.start();
  try {
    await waitHealthy(fresh, info, { port, hostNet, before, timeoutMs: deps.healthTimeoutMs });
  } catch (err) {
    if (!(err instanceof PortTaken) || target.self) {
      await fresh.remove({ force: true }).catch(() => {});
      throw err;
    }
    // The service does not listen with SO_REUSEPORT: the old one must let go of the port first,
    // and the product does without this service while the new one starts.
    logger?.warn({ container: name, port }, 'port taken: the old container stops before the new one starts');
    await stopAndRemove(old, info);
    await fresh.start();
    await waitHealthy(fresh, info, { port, hostNet, before: null, timeoutMs: deps.healthTimeoutMs });
    await fresh.rename({ name });
    return;
  }
  if (!target.self) {
    await stopAndRemove(old, info);
    await fresh.rename({ name });
    return;
  }
  // This process's own container: it cannot remove itself and keep running to say so. It hands
  // its name over, answers the step, and stops a moment later; the new instance removes the
  // stopped `.retired` container at its next listing.
  await old.rename({ name: name + RETIRED });
  await fresh.rename({ name });
  setTimeout(() => {
    old.stop({ t: stopTimeout(info) }).catch((err: unknown) => logger?.error({ err }, 'could not stop the replaced admin container'));
  }, 2_000);
}

async function stopAndRemove(c: Docker.Container, info: Docker.ContainerInspectInfo): Promise<void> {
  // A container already stopped answers 304; either way it is removed next.
  await c.stop({ t: stopTimeout(info) }).catch(() => {});
  await c.remove({ force: true });
}

/**
 * Healthy: its Docker health check says so (or, without one, its /ready answers 200), and on the
 * host's network one more socket listens on its port than before it started — with SO_REUSEPORT
 * the old container still answers both probes, so a probe alone cannot tell the new one is up.
 */
async function waitHealthy(
  fresh: Docker.Container,
  info: Docker.ContainerInspectInfo,
  o: { port?: number; hostNet: boolean; before: number | null; timeoutMs: number },
): Promise<void> {
  const name = bare(info.Name);
  const deadline = Date.now() + o.timeoutMs;
  for (;;) {
    const state = (await fresh.inspect()).State;
    if (!state.Running && !state.Restarting) {
      const logs = String(await fresh.logs({ stdout: true, stderr: true, tail: 40 }).catch(() => ''));
      if (/EADDRINUSE/.test(logs)) throw new PortTaken(`порт ${o.port} занят старым контейнером ${name}`);
      throw new Error(`новый контейнер ${name} остановился с кодом ${state.ExitCode}`);
    }
    let ok: boolean;
    if (hasHealthcheck(info)) {
      if (state.Health?.Status === 'unhealthy') throw new Error(`новый контейнер ${name} не прошёл проверку здоровья`);
      ok = state.Health?.Status === 'healthy';
    } else {
      ok = o.port !== undefined && o.hostNet ? await ready(o.port) : state.Running;
    }
    if (ok && o.port !== undefined && o.before !== null) {
      const now = listenersOn(o.port);
      ok = now === null || now > o.before;
    }
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`новый контейнер ${name} не стал здоровым за ${Math.round(o.timeoutMs / 1000)} с`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

const ready = (port: number) =>
  fetch(`http://127.0.0.1:${port}/ready`, { signal: AbortSignal.timeout(2_000) }).then(
    (r) => r.ok,
    () => false,
  );
