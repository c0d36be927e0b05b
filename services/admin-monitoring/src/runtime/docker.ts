import Docker from 'dockerode';
import type { ContainerInfo } from '@wb/contracts';
import type { Logger } from '@wb/service-kit';
import { cpuPercent, diskMb, mapBounded, memoryOf, networkOf, uptimeSeconds } from './docker-stats.ts';
import { dockerRestartPlan, isLeftover, removeLeftovers } from './docker-restart.ts';
import type { ContainerRuntime } from './types.ts';

export interface DockerRuntimeOptions {
  /** The engine's Unix socket (DOCKER_SOCKET). */
  socketPath: string;
  /** Only containers carrying this label (`key=value`, DOCKER_LABEL) are the platform's. */
  label: string;
  logger?: Logger;
  /** A listing or inspection not answered within this is an unreachable engine. */
  timeoutMs?: number;
  /** One stats sample (the engine takes two readings about a second apart). */
  statsTimeoutMs?: number;
  /** Stats read at once: each waits ~1 s on the engine, not on our CPU. */
  statsConcurrency?: number;
  /** How long a recreated container may take to be healthy before the update stops with an error. */
  healthTimeoutMs?: number;
}


/** Why a call failed, in one line (dockerode errors carry the engine's JSON answer in `json`). */
export function reasonOf(err: unknown): string {
  const e = err as { json?: { message?: string }; reason?: string; code?: string; message?: string };
  return e?.json?.message ?? e?.message ?? e?.reason ?? e?.code ?? String(err);
}

/** Rejects with `what` when `p` is not settled within `ms` (a socket that accepts but never answers). */
export function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: нет ответа за ${ms} мс`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/**
 * CONTAINER_RUNTIME=docker: the platform's containers on one Docker engine (spec §3 Docker data)
 * and the update that recreates them one at a time (docker-restart.ts).
 */
export function createDockerRuntime(opts: DockerRuntimeOptions): ContainerRuntime {
  const timeoutMs = opts.timeoutMs ?? 3_000;
  const statsTimeoutMs = opts.statsTimeoutMs ?? 10_000;
  // Reads give up quickly; lifecycle calls (stop waits for the container's own shutdown) do not.
  const quick = new Docker({ socketPath: opts.socketPath, timeout: timeoutMs });
  const slow = new Docker({ socketPath: opts.socketPath, timeout: 120_000 });
  const unreachable = (err: unknown) => `Docker недоступен (${opts.socketPath}): ${reasonOf(err)}`;

  async function readOne(c: Docker.ContainerInfo & { SizeRw?: number }, now: number): Promise<ContainerInfo> {
    const running = c.State === 'running';
    const info: ContainerInfo = {
      id: c.Id.slice(0, 12),
      name: (c.Names[0] ?? c.Id).replace(/^\//, ''),
      image: c.Image,
      state: c.State,
      created: c.Created,
      cpu: { usage: running ? null : 0 },
      memory: { usage: running ? null : 0, used: running ? null : 0, limit: null },
      network: { rx: null, tx: null },
      // Asked with size=true, the engine leaves SizeRw out when it is 0 (omitempty): a read-only root writes nothing.
      disk: { size: diskMb(c.SizeRw ?? 0) },
      uptime: null,
    };
    const container = quick.getContainer(c.Id);
    try {
      const [inspected, stats] = await Promise.all([
        within(container.inspect(), timeoutMs, 'inspect'),
        running ? within(container.stats({ stream: false }), statsTimeoutMs, 'stats') : Promise.resolve(undefined),
      ]);
      info.uptime = uptimeSeconds(inspected.State.Running, inspected.State.StartedAt, now);
      if (stats) {
        info.cpu.usage = cpuPercent(stats);
        info.memory = memoryOf(stats);
        info.network = networkOf(stats);
      }
    } catch (err) {
      info.error = `Не удалось прочитать данные контейнера: ${reasonOf(err)}`;
    }
    return info;
  }

  return {
    name: 'docker',
    async listContainers() {
      let list: Array<Docker.ContainerInfo & { SizeRw?: number }>;
      try {
        list = await within(quick.listContainers({ all: true, size: true, filters: { label: [opts.label] } }), timeoutMs, 'Docker');
      } catch (err) {
        return { containers: [], error: unreachable(err) };
      }
      // A container the update replaced and could not remove (its own, stopped last) is not the platform's any more.
      const leftovers = list.filter((c) => isLeftover(c.Names[0] ?? '') && c.State !== 'running');
      if (leftovers.length) void removeLeftovers(slow, leftovers.map((c) => c.Id), opts.logger);
      const shown = list.filter((c) => !leftovers.includes(c)).sort((a, b) => (a.Names[0] ?? '').localeCompare(b.Names[0] ?? ''));
      const now = Date.now();
      const containers = await mapBounded(shown, opts.statsConcurrency ?? 12, (c) => readOne(c, now));
      return { containers };
    },
    restartPlan: () => dockerRestartPlan({ docker: slow, label: opts.label, logger: opts.logger, healthTimeoutMs: opts.healthTimeoutMs ?? 180_000 }),
    async close() {},
  };
}
