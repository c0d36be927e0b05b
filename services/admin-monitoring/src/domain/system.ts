import type { SystemData } from '@wb/contracts';

/**
 * The host figures of spec §3 System data, computed from raw counters the reader (system/reader.ts)
 * takes from the kernel: no I/O here, so every rounding and edge case is unit-tested.
 * Percentages 0–100 with one decimal, sizes in GB (base 1024) with two (docs/decisions.md, "Admin shapes").
 */

const GB = 1024 ** 3;

export const round1 = (n: number): number => Math.round(n * 10) / 10;
const round2 = (n: number): number => Math.round(n * 100) / 100;
const clampPercent = (n: number): number => Math.min(100, Math.max(0, n));

/** Busy and total CPU time summed over every core (what os.cpus() gives per core, in ms). */
export interface CpuSample {
  busy: number;
  total: number;
}

export function cpuSample(cores: Array<{ times: { user: number; nice: number; sys: number; idle: number; irq: number } }>): CpuSample {
  let busy = 0;
  let total = 0;
  for (const { times } of cores) {
    const b = times.user + times.nice + times.sys + times.irq;
    busy += b;
    total += b + times.idle;
  }
  return { busy, total };
}

/**
 * The share of CPU time that was busy between two samples. Counters that did not move (two reads
 * in the same tick) or went backwards (a core went offline) say nothing: 0 rather than NaN.
 */
export function cpuUsage(prev: CpuSample, next: CpuSample): number {
  const total = next.total - prev.total;
  const busy = next.busy - prev.busy;
  if (!(total > 0) || busy < 0) return 0;
  return round1(clampPercent((busy / total) * 100));
}

/** Memory from the total and what the kernel says is available to new work (MemAvailable), in bytes. */
export function memoryData(totalBytes: number, availableBytes: number): SystemData['memory'] {
  const total = Math.max(0, totalBytes);
  const used = Math.min(total, Math.max(0, total - availableBytes));
  return { usage: total > 0 ? round1((used / total) * 100) : 0, used: round2(used / GB), total: round2(total / GB) };
}

/** What fs.statfs answers (block counts and the block size). */
export interface FsStats {
  bsize: number;
  blocks: number;
  bfree: number;
  bavail: number;
}

/**
 * Disk usage as df shows it: used = total − free; the percentage is of what non-root users can
 * have (used + available), so the blocks reserved for root do not hide a full disk.
 */
export function diskData(stats: FsStats, mount: string): SystemData['disk'] {
  const total = stats.blocks * stats.bsize;
  const used = Math.max(0, (stats.blocks - stats.bfree) * stats.bsize);
  const usable = used + stats.bavail * stats.bsize;
  return { usage: usable > 0 ? round1(clampPercent((used / usable) * 100)) : 0, used: round2(used / GB), total: round2(total / GB), mount };
}

/** /proc/self/mounts escapes spaces, tabs, newlines and backslashes in paths as octal. */
const unescapeMount = (s: string) => s.replace(/\\([0-7]{3})/g, (_m, oct: string) => String.fromCharCode(parseInt(oct, 8)));

/**
 * The mount point holding `path` (absolute, symlinks already resolved): the longest mount point
 * of /proc/self/mounts that is `path` or one of its parents. '/' when the table says nothing.
 */
export function mountOf(path: string, mountsTable: string): string {
  let best = '/';
  for (const line of mountsTable.split('\n')) {
    const point = line.split(' ')[1];
    if (!point) continue;
    const mount = unescapeMount(point);
    const within = mount === '/' || path === mount || path.startsWith(mount.endsWith('/') ? mount : `${mount}/`);
    if (within && mount.length > best.length) best = mount;
  }
  return best;
}
