/** Formats and colours of spec §2 Admin panel, §4 Indicators and §9. Pure, unit-tested. */

/** §9 Usage thresholds. */
export const USAGE_WARNING = 70;
export const USAGE_DANGER = 90;

export type Tone = 'green' | 'yellow' | 'red' | 'grey';

/** §4: 90 % and above red, 70 % and above yellow, else green; unknown is grey. */
export function usageTone(percent: number | null | undefined): Tone {
  if (percent === null || percent === undefined || !Number.isFinite(percent)) return 'grey';
  if (percent >= USAGE_DANGER) return 'red';
  if (percent >= USAGE_WARNING) return 'yellow';
  return 'green';
}

/** §4: running green, exited red, paused yellow, anything else grey. */
export function stateTone(state: string): Tone {
  switch (state.toLowerCase()) {
    case 'running':
      return 'green';
    case 'exited':
      return 'red';
    case 'paused':
      return 'yellow';
    default:
      return 'grey';
  }
}

const UNITS = ['B', 'KB', 'MB', 'GB'] as const;

/** §9 Network sizes: B, KB, MB, GB, base 1024 (GB is the largest unit). */
export function formatBytes(bytes: number | null | undefined): string | null {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return null;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${value.toFixed(digits).replace('.', ',')} ${UNITS[unit]}`;
}

/** A size already in MB (container memory and disk, docs/decisions.md "Admin shapes"). */
export function formatMb(mb: number | null | undefined): string | null {
  if (mb === null || mb === undefined || !Number.isFinite(mb)) return null;
  return `${mb >= 100 ? Math.round(mb) : Math.round(mb * 10) / 10} MB`.replace('.', ',');
}

/** Percent with at most one decimal. */
export function formatPercent(p: number | null | undefined): string | null {
  if (p === null || p === undefined || !Number.isFinite(p)) return null;
  return `${(Math.round(p * 10) / 10).toString().replace('.', ',')}%`;
}

/** GB of the host (system data), one decimal. */
export function formatGb(gb: number): string {
  return `${(Math.round(gb * 10) / 10).toString().replace('.', ',')} GB`;
}

/** §9 Uptime: days and hours, e.g. '2 д 5 ч', '0 д 3 ч'. */
export function formatUptime(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const days = Math.floor(s / 86_400);
  const hours = Math.floor((s % 86_400) / 3600);
  return `${days} д ${hours} ч`;
}

/**
 * A container's uptime: the runtime's own `uptime` (seconds) when it gives one, else the time since
 * `created` (unix seconds) while it runs; null for a stopped one whose runtime does not tell.
 */
export function containerUptime(
  c: { state: string; created: number; uptime?: number | null },
  nowMs: number,
): string | null {
  if (typeof c.uptime === 'number') return formatUptime(c.uptime);
  if (c.uptime === undefined && c.state.toLowerCase() === 'running')
    return formatUptime(nowMs / 1000 - c.created);
  return null;
}

/** Revenue and today's payments are in roubles (contracts AdminStats): the Russian locale, ₽. */
export function formatRoubles(amount: number): string {
  return new Intl.NumberFormat('ru-RU', {
    style: 'currency',
    currency: 'RUB',
    minimumFractionDigits: Number.isInteger(amount) ? 0 : 2,
    maximumFractionDigits: 2,
  }).format(amount);
}

/** HH:MM of an activity item, in the browser's time zone. */
export function formatTime(iso: string): string {
  return new Intl.DateTimeFormat('ru-RU', { hour: '2-digit', minute: '2-digit' }).format(new Date(iso));
}

/** Date and time of the system data's read. */
export function formatDateTime(iso: string): string {
  return new Intl.DateTimeFormat('ru-RU', {
    day: '2-digit',
    month: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).format(new Date(iso));
}
