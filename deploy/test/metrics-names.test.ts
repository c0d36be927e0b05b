import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@wb/db';
import { TOPOLOGY as MANIFEST, type ServiceTopology } from '@wb/topology';
import { chartDir } from '../chart/generate.ts';
import { metricNames } from '../chart/monitoring/promql.ts';
import { EXTERNAL_METRICS } from '../chart/monitoring/rules.ts';
import { startCluster, type ClusterHandle } from '../local/cluster.ts';
import { addSticky, call, eventually, yClient } from './clients.ts';

const TOPOLOGY: readonly ServiceTopology[] = MANIFEST;
const ADMIN = { email: 'metrics-admin@example.com', password: 'Admin-Pass-123' };

/**
 * The metric names an exposition declares: every sample's name, and every family's (# TYPE) with the
 * series a histogram or summary adds, so a labelled counter nobody has incremented yet still counts.
 */
function exportedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)/.exec(line);
    if (type) {
      const [, name, kind] = type as unknown as [string, string, string];
      names.add(name);
      if (kind === 'histogram') for (const s of ['_bucket', '_count', '_sum']) names.add(name + s);
      if (kind === 'summary') for (const s of ['_count', '_sum']) names.add(name + s);
    } else if (line && !line.startsWith('#')) {
      names.add(/^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line)![0]);
    }
  }
  return names;
}

/** What ships in the chart: the PrometheusRule's and the Grafana dashboards' PromQL. */
function shippedQueries(): Array<{ where: string; expr: string }> {
  const rules = JSON.parse(readFileSync(path.join(chartDir, 'files', 'rules.json'), 'utf8')) as {
    groups: Array<{ rules: Array<{ alert: string; expr: string }> }>;
  };
  const out = rules.groups.flatMap((g) => g.rules.map((r) => ({ where: `alert ${r.alert}`, expr: r.expr })));
  const dir = path.join(chartDir, 'files', 'dashboards');
  for (const file of readdirSync(dir)) {
    const d = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as { panels: Array<{ title: string; targets?: Array<{ expr: string }> }> };
    for (const p of d.panels) for (const t of p.targets ?? []) out.push({ where: `dashboard ${file} / ${p.title}`, expr: t.expr });
  }
  return out;
}

// Every service as its own process (the local cluster: NATS, FerretDB, PostgreSQL), scraped at /metrics
// after some traffic: a dashboard or an alert that names a metric nobody exports would stay empty
// (or never fire) in production without anyone noticing.
describe('dashboards and alerts name exported metrics', () => {
  let cluster: ClusterHandle;
  let metricsPort: number;

  beforeAll(async () => {
    metricsPort = await freePort();
    cluster = await startCluster({ env: { METRICS_PORT: String(metricsPort), ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
  }, 180_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  it('every metric of every rule and panel is exported by some service', async () => {
    const base = cluster.url;
    const reg = await call(base, 'POST', '/api/auth/register', { body: { email: 'sre@example.com', password: 'Secret-123', name: 'Дежурный' } });
    const token: string = reg.body.accessToken;
    const boardId: string = (await call(base, 'POST', '/api/boards', { token, body: { title: 'Метрики', folder_id: null } })).body.board.id;
    await call(base, 'GET', '/api/boards', { token });
    await call(base, 'GET', '/api/billing/plans', { token });
    // admin-monitoring only sees an administrator's calls (the gateway refuses the others before routing).
    const admin: string = (await call(base, 'POST', '/api/auth/login', { body: ADMIN })).body.accessToken;
    expect((await call(base, 'GET', '/api/admin/stats', { token: admin })).status).toBe(200);
    const client = yClient(`${base.replace('http', 'ws')}/yjs`, boardId, token);
    try {
      await eventually(() => client.provider.synced, 15_000, 'sync');
      addSticky(client.doc, 's1', 'для метрик');
      // An export goes through the queue (export_queue) and the export service's routes, whatever it answers.
      const res = await fetch(`${base}/api/export/svg`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ boardId, area: { x: -50, y: -50, width: 300, height: 300 } }),
      });
      expect(res.status).toBeLessThan(500);
    } finally {
      client.provider.destroy();
    }

    const scrapes: Record<string, string> = {};
    for (const [name, svc] of Object.entries(cluster.services)) {
      const url = name === 'gateway' ? `http://127.0.0.1:${metricsPort}/metrics` : `${svc.url}/metrics`;
      const res = await fetch(url);
      expect(res.status, `${name} ${url}`).toBe(200);
      scrapes[name] = await res.text();
    }
    // Every deployed service of the manifest was scraped, and labels its series as the alerts select them.
    const deployed = TOPOLOGY.filter((s) => s.package !== undefined).map((s) => s.name);
    expect(Object.keys(scrapes).sort()).toEqual([...deployed].sort());
    for (const name of deployed) expect(scrapes[name], name).toMatch(new RegExp(`^http_request_duration_seconds_count\\{[^}]*service="${name}"`, 'm'));
    // Each durable consumer of the manifest reports its backlog, on the service that runs it.
    for (const s of TOPOLOGY) {
      for (const c of s.needs.nats?.consumers ?? []) {
        if (s.package) expect(scrapes[s.name], `${s.name}: events_consumer_pending of ${c}`).toMatch(new RegExp(`^events_consumer_pending\\{[^}]*consumer="${c}"`, 'm'));
      }
    }

    // Beyond the families every service shares, a service's metrics carry its manifest prefix.
    const shared = /^(http_|process_|nodejs_|events_)/;
    for (const s of TOPOLOGY.filter((t) => t.package)) {
      const own = [...exportedNames(scrapes[s.name]!)].filter((m) => !shared.test(m));
      expect(own.filter((m) => !m.startsWith(s.metricsPrefix)), s.name).toEqual([]);
    }

    const exported = new Set(Object.values(scrapes).flatMap((t) => [...exportedNames(t)]));
    const external = new Set<string>(EXTERNAL_METRICS);
    const queries = shippedQueries();
    expect(queries.length).toBeGreaterThan(20);
    const missing = queries.flatMap(({ where, expr }) =>
      metricNames(expr)
        .filter((m) => !exported.has(m) && !external.has(m))
        .map((m) => `${where}: ${m}`),
    );
    expect(missing).toEqual([]);
  }, 120_000);
});

describe('metricNames', () => {
  it('reads the metric names of a PromQL expression, not its functions, labels or keywords', () => {
    expect(
      metricNames(
        'histogram_quantile(0.99, sum by (le) (rate(a_seconds_bucket{service="x",route!~"un.*"}[5m]))) > 1e3 and sum without (pod) (b_total offset 5m) / on (service) group_left c',
      ).sort(),
    ).toEqual(['a_seconds_bucket', 'b_total', 'c']);
  });
});
