// `npm run loadtest [-- http|ws] [--target URL]` (scripts/loadtest.mjs runs this under tsx): without
// --target it starts the local cluster (deploy/local/cluster.ts, free ports, AUTH_RATE_LIMIT_PER_MIN=0
// in its gateway) and runs the Artillery scenarios against it, then stops it; with --target it runs
// them against that deployment. Prints Artillery's summary and the command; exits non-zero when an
// `ensure` threshold (or the run) failed.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { artilleryArgs, SCENARIOS, wallLimitSeconds, type Scenario } from './settings.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { target: { type: 'string' }, 'realtime-replicas': { type: 'string' } },
});
const which = (positionals.length ? positionals : [...SCENARIOS]) as Scenario[];
for (const s of which) {
  if (!SCENARIOS.includes(s)) {
    console.error(`unknown scenario "${s}"; available: ${SCENARIOS.join(', ')}`);
    process.exit(2);
  }
}

function runArtillery(args: string[], limitSeconds: number): Promise<number> {
  const bin = path.join(repoRoot, 'node_modules', 'artillery', 'bin', 'run');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: repoRoot,
      stdio: 'inherit',
      // Neither telemetry nor an update check: the run talks to the target only.
      env: { ...process.env, ARTILLERY_DISABLE_TELEMETRY: 'true', ARTILLERY_NO_UPDATE_CHECK: 'true' },
    });
    const forward = (sig: NodeJS.Signals) => child.kill(sig);
    process.once('SIGINT', forward);
    const limit = setTimeout(() => {
      console.error(`[loadtest] still running after ${limitSeconds} s: stopping Artillery`);
      child.kill('SIGKILL');
    }, limitSeconds * 1000);
    child.once('exit', (code, signal) => {
      clearTimeout(limit);
      process.off('SIGINT', forward);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

const reportDir = path.join(os.tmpdir(), 'wb-loadtest');
mkdirSync(reportDir, { recursive: true });

let cluster: { url: string; stop(): Promise<void> } | undefined;
let target = values.target ?? process.env.LT_TARGET;
if (!target) {
  const { startCluster } = await import('../../deploy/local/cluster.ts');
  const started = Date.now();
  cluster = await startCluster({ realtimeReplicas: Number(values['realtime-replicas'] ?? 1) });
  target = cluster.url;
  console.log(`[loadtest] local cluster at ${target} (started in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
let failed = 0;
try {
  for (const s of which) {
    const report = path.join(reportDir, `${s}-${Date.now()}.json`);
    const args = artilleryArgs(s, target, process.env, report);
    console.log(`\n[loadtest] ${s}: artillery ${args.map((a) => (/[\s{}"]/.test(a) ? `'${a}'` : a)).join(' ')}`);
    const code = await runArtillery(args, wallLimitSeconds(s, process.env));
    const figures = summarise(report);
    console.log(`\n[loadtest] ${s}: ${code === 0 ? 'thresholds met' : `FAILED (exit ${code})`}${figures ? `; ${figures}` : ''}`);
    console.log(`[loadtest] machine: ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    if (code !== 0) failed++;
  }
} finally {
  await cluster?.stop();
}
console.log(`[loadtest] command: npm run loadtest${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`);
process.exit(failed ? 1 : 0);

/** The headline figures from Artillery's JSON report (absent when the run died before writing it). */
function summarise(file: string): string | undefined {
  try {
    const agg = JSON.parse(readFileSync(file, 'utf8')).aggregate as {
      counters: Record<string, number>;
      summaries: Record<string, { p50: number; p95: number; p99: number; count: number }>;
      rates?: Record<string, number>;
    };
    const parts: string[] = [];
    const h = (name: string, label: string) => {
      const s = agg.summaries[name];
      if (s) parts.push(`${label} p50 ${s.p50} / p95 ${s.p95} / p99 ${s.p99} ms (n=${s.count})`);
    };
    h('http.response_time', 'HTTP');
    // The routes with the longest p95 (Artillery's metrics-by-endpoint): where the HTTP tail comes from.
    const prefix = 'plugins.metrics-by-endpoint.response_time.';
    const routes = Object.entries(agg.summaries)
      .filter(([k]) => k.startsWith(prefix))
      .sort(([, a], [, b]) => b.p95 - a.p95)
      .slice(0, 3)
      .map(([k, v]) => `${k.slice(prefix.length)} ${v.p95}`);
    if (routes.length) parts.push(`slowest p95: ${routes.join(', ')} ms`);
    h('ws.update_delivery', 'update delivery');
    h('ws.awareness_delivery', 'awareness delivery');
    const c = agg.counters;
    parts.push(`users ${c['vusers.completed'] ?? 0} completed / ${c['vusers.failed'] ?? 0} failed of ${c['vusers.created'] ?? 0}`);
    return parts.join('; ');
  } catch {
    return undefined;
  }
}
