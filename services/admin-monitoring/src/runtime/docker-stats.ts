import type Docker from 'dockerode';

/**
 * The numbers of one Docker stats sample, computed as `docker stats` computes them (docker/cli
 * cli/command/container/stats_helpers.go), so the panel and the engine's own CLI agree. No I/O.
 */

const MB = 1024 * 1024;
const round1 = (n: number) => Math.round(n * 10) / 10;

/**
 * CPU % over the sample's interval: the container's CPU time over the host's, times the CPUs online
 * (100 % = one whole core, as `docker stats`). A sample with no previous reading (the first of a
 * freshly started container) has no interval: 0, as the CLI shows it.
 */
export function cpuPercent(s: Pick<Docker.ContainerStats, 'cpu_stats' | 'precpu_stats'>): number {
  const cpu = s.cpu_stats;
  const pre = s.precpu_stats;
  const cpuDelta = (cpu?.cpu_usage?.total_usage ?? 0) - (pre?.cpu_usage?.total_usage ?? 0);
  const systemDelta = (cpu?.system_cpu_usage ?? 0) - (pre?.system_cpu_usage ?? 0);
  const online = cpu?.online_cpus || cpu?.cpu_usage?.percpu_usage?.length || 1;
  if (!pre?.system_cpu_usage || systemDelta <= 0 || cpuDelta <= 0) return 0;
  return round1((cpuDelta / systemDelta) * online * 100);
}

/**
 * Memory used without the page cache the kernel can drop at once (inactive files), as the CLI:
 * cgroup v1 reports it as total_inactive_file, v2 as inactive_file. The limit is the container's
 * own, or the host's memory when it has none (the engine reports that).
 */
export function memoryOf(s: Pick<Docker.ContainerStats, 'memory_stats'>): { usage: number | null; used: number | null; limit: number | null } {
  const m = s.memory_stats;
  if (!m || typeof m.usage !== 'number') return { usage: null, used: null, limit: null };
  const stats = (m.stats ?? {}) as Partial<Record<string, number>>;
  let used = m.usage;
  const v1 = stats.total_inactive_file;
  const v2 = stats.inactive_file;
  if (v1 !== undefined && v1 < m.usage) used = m.usage - v1;
  else if (v2 !== undefined && v2 < m.usage) used = m.usage - v2;
  const limit = m.limit > 0 ? m.limit : null;
  return { usage: limit ? round1((used / limit) * 100) : null, used: round1(used / MB), limit: limit ? round1(limit / MB) : null };
}

/**
 * Bytes received and sent over the container's own interfaces. A container on the host's network
 * has none of its own (the engine reports no `networks`): unknown, not 0.
 */
export function networkOf(s: Pick<Docker.ContainerStats, 'networks'>): { rx: number | null; tx: number | null } {
  const nets = Object.values(s.networks ?? {});
  if (!nets.length) return { rx: null, tx: null };
  return { rx: nets.reduce((a, n) => a + (n.rx_bytes ?? 0), 0), tx: nets.reduce((a, n) => a + (n.tx_bytes ?? 0), 0) };
}

/** The writable layer's size in MB (SizeRw; absent when the engine was not asked for sizes). */
export function diskMb(sizeRw: number | undefined): number | null {
  return typeof sizeRw === 'number' && sizeRw >= 0 ? round1(sizeRw / MB) : null;
}

/** Seconds since the container's process started, while it runs. */
export function uptimeSeconds(running: boolean, startedAt: string | undefined, now = Date.now()): number | null {
  if (!running || !startedAt) return null;
  const t = Date.parse(startedAt);
  return Number.isFinite(t) && t > 0 ? Math.max(0, Math.floor((now - t) / 1000)) : null;
}

/** Runs `fn` over `items` with at most `limit` at once, keeping the order. */
export async function mapBounded<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker));
  return out;
}
