import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { TOPOLOGY as MANIFEST, type ServiceTopology } from '@wb/topology';
import { chartDir, expectedFiles, serviceValues, staleFiles } from '../chart/generate.ts';
import { ruleGroups } from '../chart/monitoring/rules.ts';
import { docWithSettings, operationsDoc } from '../chart/settings.ts';

const TOPOLOGY: readonly ServiceTopology[] = MANIFEST;

// The chart's per-service values, its facts file and its values schema come from the topology
// manifest (npm run chart:generate); the chart's own checks (lint, kubeconform, helm-unittest) run in
// .ci/run. Here: what is committed is what the manifest gives.
describe('the Helm chart agrees with the topology manifest', () => {
  it('has its generated files up to date', () => {
    expect(staleFiles()).toEqual([]);
  });

  it("has docs/operations.md's settings table as the service definitions parse them", async () => {
    const doc = readFileSync(operationsDoc, 'utf8');
    expect(await docWithSettings(doc)).toBe(doc);
    // Spot checks that the table reads the schemas: a default, a secret, a required setting.
    expect(doc).toContain('| auth | `ACCESS_TOKEN_TTL` |');
    expect(doc).toMatch(/\| billing \| `STRIPE_SECRET_KEY` \| — \| secret \|/);
    expect(doc).toMatch(/\| export \| `DATABASE_URL` \| — \| secret, required \|/);
  });

  it('has a values block per service with the manifest defaults', () => {
    const values = parse(readFileSync(path.join(chartDir, 'values.yaml'), 'utf8')) as { services: Record<string, unknown> };
    expect(Object.keys(values.services)).toEqual(TOPOLOGY.map((s) => s.name));
    expect(values.services).toEqual(serviceValues());
  });

  it('generates the alerts and dashboards from the manifest: per service, per consumer, per outbox', () => {
    const files = Object.keys(expectedFiles()).map((f) => path.relative(chartDir, f));
    expect(files).toEqual(
      expect.arrayContaining(['files/rules.json', ...['overview', 'realtime', 'events', 'exports'].map((d) => `files/dashboards/${d}.json`)]),
    );
    const rules = ruleGroups().flatMap((g) => g.rules);
    const alerts = rules.map((r) => r.alert);
    for (const s of TOPOLOGY.filter((t) => t.package)) {
      const name = s.name[0]!.toUpperCase() + s.name.slice(1);
      expect(alerts).toEqual(expect.arrayContaining([`${name}HighErrorRate`, `${name}HighLatencyP99`]));
      for (const c of s.needs.nats?.consumers ?? []) expect(rules.some((r) => r.alert.endsWith('ConsumerLag') && r.expr.includes(`consumer="${c}"`)), c).toBe(true);
    }
    // A planned service (no package) would have no alerts; every entry has a package since issue 34.
    for (const s of TOPOLOGY.filter((t) => !t.package)) expect(alerts.some((a) => a.toLowerCase().startsWith(s.name)), s.name).toBe(false);
    const overview = readFileSync(path.join(chartDir, 'files', 'dashboards', 'overview.json'), 'utf8');
    for (const s of TOPOLOGY.filter((t) => t.package)) expect(overview).toContain(`service=\\"${s.name}\\"`);
  });
});
