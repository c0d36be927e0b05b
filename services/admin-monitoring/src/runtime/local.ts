import { readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import type { ContainerInfo } from '@wb/contracts';
import type { Logger } from '@wb/service-kit';
import { cpuPercent, parseBootTime, parseRssBytes, parseStat, parseWriteBytes, percentOf, stateWord, toMb, treeOf, type ProcStat } from '../domain/proc.ts';
import { restartStepName } from '../domain/update.ts';
import type { ContainerRuntime, RestartStep } from './types.ts';

/**
 * CONTAINER_RUNTIME=local: the processes of `npm start` (embedded) and of the local cluster, as the
 * runner's supervisor lists them (deploy/local/supervisor.ts: name, pid, role), with their CPU,
 * memory, uptime and disk writes read from /proc for each process and everything below it. The
 * system update restarts one service at a time through the same supervisor.
 */

/** Linux's USER_HZ: /proc counts CPU time in these ticks (100 on every architecture Node runs on). */
const TICKS_PER_SECOND = 100;
/** Without an earlier reading CPU usage is measured over this long. */
const FIRST_SAMPLE_MS = 250;
/** A restart waits for the new process to answer (migrations on a busy machine) and the old to stop. */
const RESTART_TIMEOUT_MS = 180_000;
const LIST_TIMEOUT_MS = 5_000;

export const SUPERVISOR_UNREACHABLE = 'Супервизор локальных процессов недоступен';
export const SUPERVISOR_NOT_CONFIGURED = 'Не задан адрес супервизора локальных процессов (LOCAL_SUPERVISOR_URL)';

interface SupervisedProcess {
  name: string;
  pid: number | null;
  role: string;
  image: string;
  started: number;
}

async function readStats(): Promise<Map<number, ProcStat>> {
  const stats = new Map<number, ProcStat>();
  const pids = (await readdir('/proc')).filter((n) => /^\d+$/.test(n));
  await Promise.all(
    pids.map(async (p) => {
      const text = await readFile(`/proc/${p}/stat`, 'utf8').catch(() => undefined);
      const s = text ? parseStat(text) : undefined;
      if (s) stats.set(s.pid, s);
    }),
  );
  return stats;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

export function localRuntime(opts: { supervisorUrl?: string; token?: string; logger: Logger }): ContainerRuntime {
  const { supervisorUrl, token, logger } = opts;
  const headers = { authorization: `Bearer ${token ?? ''}` };
  /** The last reading of each process tree's CPU ticks, for usage between two list calls. */
  const lastTicks = new Map<number, { ticks: number; at: number }>();

  async function call<T>(method: string, path: string, timeoutMs: number): Promise<T> {
    if (!supervisorUrl) throw new Error(SUPERVISOR_NOT_CONFIGURED);
    const res = await fetch(new URL(path, supervisorUrl), { method, headers, signal: AbortSignal.timeout(timeoutMs) });
    const body = (await res.json().catch(() => ({}))) as T & { error?: string };
    if (!res.ok) throw new Error(body.error ?? `${SUPERVISOR_UNREACHABLE} (HTTP ${res.status})`);
    return body;
  }

  const treeTicks = (root: number, stats: Map<number, ProcStat>) => sum(treeOf(root, stats).map((p) => stats.get(p)!.ticks));

  async function describe(p: SupervisedProcess, stats: Map<number, ProcStat>, bootTime: number | undefined, now: number): Promise<ContainerInfo> {
    const base = { id: p.pid === null ? p.name : String(p.pid), name: p.name, image: p.image, network: { rx: null, tx: null } };
    const root = p.pid === null ? undefined : stats.get(p.pid);
    if (!root) {
      return { ...base, state: 'exited', created: p.started, uptime: null, cpu: { usage: null }, memory: { usage: null, used: null, limit: null }, disk: { size: null }, error: 'Процесс не найден' };
    }
    const tree = treeOf(root.pid, stats);
    const [rss, writes] = await Promise.all([
      Promise.all(tree.map((pid) => readFile(`/proc/${pid}/status`, 'utf8').then(parseRssBytes, () => 0))),
      Promise.all(tree.map((pid) => readFile(`/proc/${pid}/io`, 'utf8').then(parseWriteBytes, () => undefined))),
    ]);
    const ticks = treeTicks(root.pid, stats);
    const prev = lastTicks.get(root.pid);
    lastTicks.set(root.pid, { ticks, at: now });
    const total = os.totalmem();
    const used = sum(rss);
    // Another user's process (PostgreSQL run as `postgres` under root) hides its io: unknown, not 0.
    const written = writes.some((w) => w === undefined) ? null : toMb(sum(writes as number[]));
    const state = stateWord(root.state);
    const created = bootTime !== undefined ? Math.floor(bootTime + root.startTicks / TICKS_PER_SECOND) : p.started;
    return {
      ...base,
      state,
      created,
      uptime: state === 'running' ? Math.max(0, Math.floor(now / 1000) - created) : null,
      cpu: { usage: prev ? cpuPercent(prev.ticks, ticks, (now - prev.at) / 1000, TICKS_PER_SECOND) : null },
      memory: { usage: percentOf(used, total), used: toMb(used), limit: toMb(total) },
      disk: { size: written },
    };
  }

  return {
    name: 'local',
    async listContainers() {
      let processes: SupervisedProcess[];
      try {
        processes = (await call<{ processes: SupervisedProcess[] }>('GET', '/processes', LIST_TIMEOUT_MS)).processes;
      } catch (err) {
        logger.warn({ err }, 'local supervisor not reachable');
        const reason = (err as Error).message;
        return { containers: [], error: reason.startsWith(SUPERVISOR_NOT_CONFIGURED) ? reason : `${SUPERVISOR_UNREACHABLE}: ${reason}` };
      }
      const bootTime = parseBootTime(await readFile('/proc/stat', 'utf8').catch(() => ''));
      let stats = await readStats();
      // A process seen for the first time has no earlier reading: take one now and measure over a short span.
      const unseen = processes.filter((p) => p.pid !== null && stats.has(p.pid) && !lastTicks.has(p.pid));
      if (unseen.length > 0) {
        const at = Date.now();
        for (const p of unseen) lastTicks.set(p.pid!, { ticks: treeTicks(p.pid!, stats), at });
        await new Promise((r) => setTimeout(r, FIRST_SAMPLE_MS));
        stats = await readStats();
      }
      const now = Date.now();
      const containers = await Promise.all(processes.map((p) => describe(p, stats, bootTime, now)));
      // Forget processes that are gone (a restart gives a new pid).
      const live = new Set(processes.map((p) => p.pid));
      for (const pid of lastTicks.keys()) if (!live.has(pid)) lastTicks.delete(pid);
      return { containers };
    },
    async restartPlan(): Promise<RestartStep[]> {
      const { services } = await call<{ services: Array<{ name: string }> }>('GET', '/services', LIST_TIMEOUT_MS);
      return services.map((s) => ({
        name: restartStepName(s.name),
        run: async () => {
          await call('POST', `/services/${encodeURIComponent(s.name)}/restart`, RESTART_TIMEOUT_MS);
        },
      }));
    },
    close: async () => {},
  };
}
