import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { TOPOLOGY } from '@wb/topology';
import { chartDir, serviceValues, staleFiles } from '../chart/generate.ts';

// The chart's per-service values, its facts file and its values schema come from the topology
// manifest (npm run chart:generate); the chart's own checks (lint, kubeconform, helm-unittest) run in
// .ci/run. Here: what is committed is what the manifest gives.
describe('the Helm chart agrees with the topology manifest', () => {
  it('has its generated files up to date', () => {
    expect(staleFiles()).toEqual([]);
  });

  it('has a values block per service with the manifest defaults', () => {
    const values = parse(readFileSync(path.join(chartDir, 'values.yaml'), 'utf8')) as { services: Record<string, unknown> };
    expect(Object.keys(values.services)).toEqual(TOPOLOGY.map((s) => s.name));
    expect(values.services).toEqual(serviceValues());
  });
});
