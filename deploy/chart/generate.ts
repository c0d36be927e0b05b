// Writes what the Helm chart charts/whiteboard takes from the topology manifest (libs/topology):
// - files/topology.json: the facts its templates read (ports, routes, needs, settings, probes, flags);
// - the `services:` block of values.yaml (per-service knobs with the manifest's defaults);
// - values.schema.json (so a wrong type or an unknown key fails at install, naming the key);
// - the topology table of docs/operations.md;
// - files/rules.json (the PrometheusRule's alerts) and files/dashboards/*.json (Grafana), from
//   deploy/chart/monitoring.
//
//   node --import tsx deploy/chart/generate.ts          write them
//   node --import tsx deploy/chart/generate.ts --check  exit 1 when any is stale (deploy/test checks too)
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { TOPOLOGY, urlVariableOf, type ServiceTopology } from '@wb/topology';
import { docWithSettings, operationsDoc } from './settings.ts';
import { valuesSchema } from './values-schema.ts';
import { dashboards } from './monitoring/dashboards.ts';
import { ruleGroups } from './monitoring/rules.ts';

export const chartDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'charts', 'whiteboard');

const BEGIN = '# BEGIN services: generated from libs/topology by `npm run chart:generate`; edit the manifest, not this block';
const END = '# END services';

/** The facts the templates need, keyed by service name, in start order. */
export function topologyFacts(services: readonly ServiceTopology[] = TOPOLOGY) {
  return {
    services: services.map((s) => ({
      name: s.name,
      port: s.port,
      urlVariable: urlVariableOf(s.name),
      routed: s.routes.length > 0,
      websocket: s.routes.some((r) => r.websocket),
      postgresSchema: s.needs.postgres?.schema ?? null,
      mongo: s.needs.mongo ?? false,
      nats: Boolean(s.needs.nats),
      needs: s.needs.services,
      // Who calls this service: the gateway for routed ones, and every service that needs it.
      calledBy: [...new Set([...(s.routes.length ? ['gateway'] : []), ...services.filter((o) => (o.needs.services as readonly string[]).includes(s.name)).map((o) => o.name)])],
      reachedBy: s.reachedBy,
      secrets: s.settings.secrets,
      required: s.settings.required,
      probes: s.probes,
      nodeFlags: s.nodeFlags,
      headless: s.scaling.headless ?? false,
    })),
  };
}

/** Per-service knobs with the manifest's defaults (what an operator overrides in a values file). */
export function serviceValues(services: readonly ServiceTopology[] = TOPOLOGY) {
  return Object.fromEntries(
    services.map((s) => [
      s.name,
      {
        enabled: s.package !== undefined,
        replicas: s.scaling.replicas,
        autoscaling: {
          enabled: s.scaling.autoscale !== undefined,
          minReplicas: s.scaling.autoscale?.min ?? s.scaling.replicas,
          maxReplicas: s.scaling.autoscale?.max ?? s.scaling.replicas,
          targetCPUUtilizationPercentage: s.scaling.autoscale?.cpuPercent ?? 70,
        },
        resources: { requests: { ...s.resources.requests }, limits: { ...s.resources.limits } },
        env: {},
      },
    ]),
  );
}

export function renderValuesBlock(): string {
  const body = stringify({ services: serviceValues() }, { lineWidth: 0 }).trimEnd();
  return `${BEGIN}\n${body}\n${END}`;
}

/** values.yaml with its generated block replaced (the rest of the file is hand-written). */
export function valuesWithBlock(current: string): string {
  const start = current.indexOf(BEGIN);
  const end = current.indexOf(END);
  if (start < 0 || end < start) throw new Error(`values.yaml has no generated block (${BEGIN} … ${END})`);
  return current.slice(0, start) + renderValuesBlock() + current.slice(end + END.length);
}

const DOC_BEGIN = '<!-- BEGIN topology: generated from libs/topology by `npm run chart:generate` -->';
const DOC_END = '<!-- END topology -->';

/** The table of docs/operations.md that says, per service, what the manifest says. */
export function renderTopologyTable(services: readonly ServiceTopology[] = TOPOLOGY): string {
  const code = (xs: readonly string[]) => (xs.length ? xs.map((x) => `\`${x}\``).join(', ') : '—');
  const rows = services.map((s) => {
    const needs = [
      s.needs.postgres ? `PostgreSQL schema \`${s.needs.postgres.schema}\`` : '',
      s.needs.mongo ? 'MongoDB' : '',
      s.needs.nats ? `NATS${s.needs.nats.consumers.length ? ` (consumers ${code(s.needs.nats.consumers)})` : ''}` : '',
      s.needs.services.length ? `calls ${s.needs.services.join(', ')}` : '',
    ].filter(Boolean);
    const routes = s.routes.map((r) => `\`${r.path}\`${r.websocket ? ' (WebSocket)' : ''}${r.byBoard ? ' (by board)' : ''}`);
    return `| ${s.name}${s.package ? '' : ' (planned)'} | ${s.port} | ${routes.join(', ') || '—'} | ${needs.join('; ') || '—'} | ${code(s.settings.required)} | ${code(s.settings.secrets)} | ${code(s.nodeFlags)} | ${s.resources.requests.cpu} / ${s.resources.requests.memory}, limit ${s.resources.limits.memory} | ${s.scaling.autoscale ? `${s.scaling.autoscale.min}–${s.scaling.autoscale.max} (CPU ${s.scaling.autoscale.cpuPercent} %)` : s.scaling.replicas} |`;
  });
  return [
    DOC_BEGIN,
    '| service | port | public routes | needs | required settings | secrets | node flags | requests / limit | replicas |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
    DOC_END,
  ].join('\n');
}

function docWithTable(current: string): string {
  const start = current.indexOf(DOC_BEGIN);
  const end = current.indexOf(DOC_END);
  if (start < 0 || end < start) throw new Error(`docs/operations.md has no generated table (${DOC_BEGIN} … ${DOC_END})`);
  return current.slice(0, start) + renderTopologyTable() + current.slice(end + DOC_END.length);
}

export function expectedFiles(): Record<string, string> {
  const valuesPath = path.join(chartDir, 'values.yaml');
  const opsPath = path.resolve(chartDir, '..', '..', 'docs', 'operations.md');
  return {
    [opsPath]: docWithTable(readFileSync(opsPath, 'utf8')),
    [path.join(chartDir, 'files', 'topology.json')]: `${JSON.stringify(topologyFacts(), null, 2)}\n`,
    [valuesPath]: valuesWithBlock(readFileSync(valuesPath, 'utf8')),
    [path.join(chartDir, 'values.schema.json')]: `${JSON.stringify(valuesSchema(TOPOLOGY.map((s) => s.name)), null, 2)}\n`,
    [path.join(chartDir, 'files', 'rules.json')]: `${JSON.stringify({ groups: ruleGroups() }, null, 2)}\n`,
    ...Object.fromEntries(
      Object.entries(dashboards()).map(([file, d]) => [path.join(chartDir, 'files', 'dashboards', file), `${JSON.stringify(d, null, 2)}\n`]),
    ),
  };
}

/** The generated files whose content differs from what the manifest gives, and dashboards it no longer gives. */
export function staleFiles(): string[] {
  const expected = expectedFiles();
  const dashboardDir = path.join(chartDir, 'files', 'dashboards');
  const leftOver = (existsSync(dashboardDir) ? readdirSync(dashboardDir) : [])
    .map((f) => path.join(dashboardDir, f))
    .filter((f) => !(f in expected))
    .map((f) => path.relative(process.cwd(), f));
  return Object.entries(expected)
    .filter(([file, text]) => {
      try {
        return readFileSync(file, 'utf8') !== text;
      } catch {
        return true;
      }
    })
    .map(([file]) => path.relative(process.cwd(), file))
    .concat(leftOver);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--check')) {
    const stale = staleFiles();
    for (const f of stale) process.stderr.write(`stale: ${f} (run npm run chart:generate)\n`);
    process.exit(stale.length ? 1 : 0);
  }
  for (const [file, text] of Object.entries(expectedFiles())) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  // After the files above: operations.md's other generated block is written by then.
  writeFileSync(operationsDoc, await docWithSettings());
  process.stdout.write(`wrote ${Object.keys(expectedFiles()).length} files under ${path.relative(process.cwd(), chartDir)}\n`);
}
