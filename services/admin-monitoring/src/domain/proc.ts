/**
 * Parsing of Linux /proc for the local adapter (runtime/local.ts), free of I/O: a process's state,
 * CPU ticks, parent and start time from /proc/<pid>/stat, its resident memory from
 * /proc/<pid>/status, what it wrote from /proc/<pid>/io, and the usage figures computed from them.
 */

export interface ProcStat {
  pid: number;
  state: string;
  ppid: number;
  /** utime + stime, in clock ticks. */
  ticks: number;
  /** Clock ticks after boot when it started. */
  startTicks: number;
}

/** /proc/<pid>/stat: the command name is in parentheses and may hold spaces, so fields are counted after the last ')'. */
export function parseStat(text: string): ProcStat | undefined {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  const pid = Number(text.slice(0, open).trim());
  const rest = text.slice(close + 2).trim().split(/\s+/);
  // rest[0] is field 3 (state); field n is rest[n - 3].
  const num = (field: number) => Number(rest[field - 3]);
  const stat = { pid, state: rest[0] ?? '?', ppid: num(4), ticks: num(14) + num(15), startTicks: num(22) };
  return Number.isFinite(stat.pid) && Number.isFinite(stat.ticks) && Number.isFinite(stat.startTicks) ? stat : undefined;
}

/** VmRSS of /proc/<pid>/status in bytes (the kernel writes kB); 0 for a zombie, which has none. */
export function parseRssBytes(status: string): number {
  const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  return m ? Number(m[1]) * 1024 : 0;
}

/** write_bytes of /proc/<pid>/io: what the process made the disk write. */
export function parseWriteBytes(io: string): number | undefined {
  const m = /^write_bytes:\s+(\d+)/m.exec(io);
  return m ? Number(m[1]) : undefined;
}

/** btime of /proc/stat: boot time in unix seconds. */
export function parseBootTime(stat: string): number | undefined {
  const m = /^btime\s+(\d+)/m.exec(stat);
  return m ? Number(m[1]) : undefined;
}

/** The kernel's process states in the words of the panel (spec §4 Indicators: running, exited, paused). */
export function stateWord(state: string | undefined): string {
  switch (state) {
    case 'R':
    case 'S':
    case 'D':
    case 'I':
      return 'running';
    case 'T':
    case 't':
      return 'paused';
    case undefined:
    case 'Z':
    case 'X':
    case 'x':
      return 'exited';
    default:
      return 'unknown';
  }
}

/** `root` and every process below it (PostgreSQL's backends, a Node process's helpers). */
export function treeOf(root: number, stats: Map<number, ProcStat>): number[] {
  const children = new Map<number, number[]>();
  for (const s of stats.values()) {
    const list = children.get(s.ppid) ?? [];
    list.push(s.pid);
    children.set(s.ppid, list);
  }
  const out: number[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    if (!stats.has(pid) || out.includes(pid)) continue;
    out.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

/**
 * CPU usage in percent of one core (as `docker stats` counts: 200 means two busy cores) between two
 * readings of the ticks, `seconds` apart. A process tree whose ticks went down (a child ended
 * between readings) reads as 0, not negative.
 */
export function cpuPercent(prevTicks: number, nextTicks: number, seconds: number, ticksPerSecond: number): number {
  if (!(seconds > 0)) return 0;
  const used = (nextTicks - prevTicks) / ticksPerSecond;
  return used > 0 ? Math.round((used / seconds) * 1000) / 10 : 0;
}

export const MB = 1024 * 1024;
export const toMb = (bytes: number): number => Math.round((bytes / MB) * 10) / 10;
export const percentOf = (part: number, whole: number): number => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0);
