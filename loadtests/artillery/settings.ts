// The sizes and thresholds of a run, from LT_* settings, as Artillery's command line (--overrides
// replaces whole sections of the scenario file's config, so the files keep working on their own).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const SCENARIOS = ['http', 'ws'] as const;
export type Scenario = (typeof SCENARIOS)[number];

const here = path.dirname(fileURLToPath(import.meta.url));
type Env = Record<string, string | undefined>;

function num(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new Error(`${name} must be a number ≥ ${min}, got "${raw}"`);
  return n;
}

/** The config sections a run overrides, with the defaults the scenario files carry. */
export function overrides(s: Scenario, env: Env): Record<string, unknown> {
  if (s === 'http') {
    return {
      phases: [{ name: 'steady', duration: num(env, 'LT_HTTP_SECONDS', 60, 1), arrivalRate: num(env, 'LT_HTTP_RATE', 1) }],
      ensure: {
        thresholds: [{ 'http.response_time.p95': num(env, 'LT_HTTP_P95_MS', 500) }, { 'http.response_time.p99': num(env, 'LT_HTTP_P99_MS', 1000) }],
        maxErrorRate: num(env, 'LT_MAX_ERROR_PCT', 1),
      },
    };
  }
  const users = num(env, 'LT_WS_USERS', 500, 1);
  return {
    variables: { boards: num(env, 'LT_WS_BOARDS', 50, 1), edits: num(env, 'LT_WS_EDITS', 60, 1) },
    phases: [{ name: 'join', duration: num(env, 'LT_WS_JOIN_SECONDS', 50, 1), arrivalCount: users }],
    ensure: {
      thresholds: [
        { 'ws.update_delivery.p95': num(env, 'LT_WS_P95_MS', 500) },
        { 'ws.update_delivery.p99': num(env, 'LT_WS_P99_MS', 1500) },
        { 'ws.awareness_delivery.p95': num(env, 'LT_WS_P95_MS', 500) },
      ],
      conditions: [{ expression: 'ws.updates_received > 0' }],
      maxErrorRate: num(env, 'LT_MAX_ERROR_PCT', 1),
    },
  };
}

/**
 * A bound on the whole run, after which run.ts stops Artillery (the run fails): the phases, each
 * user's own length and five minutes for setup, stragglers' timeouts and the report.
 */
export function wallLimitSeconds(s: Scenario, env: Env): number {
  if (s === 'http') return num(env, 'LT_HTTP_SECONDS', 60, 1) + 300;
  return num(env, 'LT_WS_JOIN_SECONDS', 50, 1) + num(env, 'LT_WS_EDITS', 60, 1) * 1.5 + 300;
}

export function artilleryArgs(s: Scenario, target: string, env: Env, reportFile: string): string[] {
  return [
    'run',
    '--target',
    target,
    '--overrides',
    JSON.stringify({ config: overrides(s, env) }),
    '--output',
    reportFile,
    path.join(here, `${s}.yml`),
  ];
}
