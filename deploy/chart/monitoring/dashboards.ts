// Grafana dashboards (charts/whiteboard/files/dashboards/*.json, one ConfigMap each for the Grafana
// sidecar: templates/dashboards.yaml), as plain typed JSON of Grafana's dashboard model. The overview
// has one row per service of the topology manifest, so a new service gets its panels by its entry.
import { TOPOLOGY, type ServiceTopology } from '@wb/topology';
import { monitoredServices } from './rules.ts';

interface Target {
  refId: string;
  expr: string;
  legendFormat: string;
  datasource: { type: 'prometheus'; uid: '${datasource}' };
}

interface Panel {
  id: number;
  type: 'timeseries' | 'stat' | 'row';
  title: string;
  gridPos: { x: number; y: number; w: number; h: number };
  datasource?: Target['datasource'];
  targets?: Target[];
  fieldConfig?: { defaults: { unit: string; min?: number }; overrides: [] };
  options?: Record<string, unknown>;
  collapsed?: boolean;
  panels?: [];
}

export interface Dashboard {
  uid: string;
  title: string;
  tags: string[];
  timezone: 'browser';
  schemaVersion: number;
  version: number;
  editable: boolean;
  refresh: string;
  time: { from: string; to: string };
  templating: { list: Array<Record<string, unknown>> };
  panels: Panel[];
}

const DS = { type: 'prometheus', uid: '${datasource}' } as const;

/** A dashboard laid out top to bottom: rows of panels, two per line unless `w` says otherwise. */
class Layout {
  panels: Panel[] = [];
  private y = 0;
  private x = 0;
  private id = 1;

  row(title: string): this {
    this.newline();
    this.panels.push({ id: this.id++, type: 'row', title, gridPos: { x: 0, y: this.y++, w: 24, h: 1 }, collapsed: false, panels: [] });
    return this;
  }

  graph(title: string, unit: string, queries: Array<[expr: string, legend: string]>, w = 12): this {
    if (this.x + w > 24) this.newline();
    this.panels.push({
      id: this.id++,
      type: 'timeseries',
      title,
      gridPos: { x: this.x, y: this.y, w, h: 8 },
      datasource: DS,
      targets: queries.map(([expr, legendFormat], i) => ({ refId: String.fromCharCode(65 + i), expr, legendFormat, datasource: DS })),
      fieldConfig: { defaults: { unit, min: 0 }, overrides: [] },
      options: { legend: { displayMode: 'list', placement: 'bottom' }, tooltip: { mode: 'multi' } },
    });
    this.x += w;
    return this;
  }

  private newline() {
    if (this.x > 0) this.y += 8;
    this.x = 0;
  }
}

function dashboard(uid: string, title: string, layout: Layout): Dashboard {
  return {
    uid,
    title,
    tags: ['whiteboard'],
    timezone: 'browser',
    schemaVersion: 39,
    version: 1,
    editable: false,
    refresh: '30s',
    time: { from: 'now-3h', to: 'now' },
    templating: {
      list: [{ name: 'datasource', label: 'Prometheus', type: 'datasource', query: 'prometheus', current: {}, hide: 0 }],
    },
    panels: layout.panels,
  };
}

const q = (s: string) => `service="${s}"`;

function overview(services: readonly ServiceTopology[]): Dashboard {
  const l = new Layout();
  l.row('All services')
    .graph('Requests per second by service', 'reqps', [['sum by (service) (rate(http_request_duration_seconds_count[5m]))', '{{service}}']])
    .graph('5xx share by service', 'percentunit', [
      [
        'sum by (service) (rate(http_request_duration_seconds_count{status=~"5.."}[5m])) / sum by (service) (rate(http_request_duration_seconds_count[5m]))',
        '{{service}}',
      ],
    ]);
  for (const s of monitoredServices(services)) {
    const sel = q(s.name);
    l.row(s.name)
      .graph(`${s.name}: requests by status`, 'reqps', [[`sum by (status) (rate(http_request_duration_seconds_count{${sel}}[5m]))`, '{{status}}']], 6)
      .graph(
        `${s.name}: latency`,
        's',
        [0.5, 0.95, 0.99].map((p) => [`histogram_quantile(${p}, sum by (le) (rate(http_request_duration_seconds_bucket{${sel}}[5m])))`, `p${p * 100}`]),
        6,
      )
      .graph(`${s.name}: memory (RSS)`, 'bytes', [[`sum by (pod) (process_resident_memory_bytes{${sel}})`, '{{pod}}']], 6)
      .graph(`${s.name}: CPU (cores)`, 'short', [[`sum by (pod) (rate(process_cpu_seconds_total{${sel}}[5m]))`, '{{pod}}']], 6);
  }
  return dashboard('whiteboard-overview', 'Whiteboard / Overview', l);
}

function realtime(): Dashboard {
  const l = new Layout();
  l.row('Clients')
    .graph('Open WebSocket connections', 'short', [['sum by (pod) (realtime_connections)', '{{pod}}']])
    .graph('Board documents in memory', 'short', [['sum by (pod) (realtime_documents_loaded)', '{{pod}}']])
    .graph('Updates per second', 'ops', [
      ['sum(rate(realtime_updates_in_total[5m]))', 'in'],
      ['sum(rate(realtime_updates_out_total[5m]))', 'out'],
    ])
    .graph('WebSocket bytes per second', 'Bps', [
      ['sum(rate(realtime_bytes_in_total[5m]))', 'in'],
      ['sum(rate(realtime_bytes_out_total[5m]))', 'out'],
    ])
    .graph('Refused connections and messages', 'ops', [['sum by (reason) (rate(realtime_rejected_total[5m]))', '{{reason}}']], 24);
  l.row('Persistence')
    .graph('Persistence lag (oldest update not yet written)', 's', [['max by (pod) (realtime_persistence_lag_seconds)', '{{pod}}']])
    .graph('Durability window p99 (accepted → stored)', 's', [
      ['histogram_quantile(0.99, sum by (le) (rate(realtime_durability_window_seconds_bucket[5m])))', 'p99'],
    ])
    .graph('Commit backlog and unshipped journal', 'bytes', [
      ['sum by (pod) (realtime_commit_backlog_bytes)', '{{pod}} backlog'],
      ['sum by (pod) (realtime_journal_unshipped_bytes)', '{{pod}} journal'],
    ])
    .graph('Paused sockets and failed commits', 'short', [
      ['sum by (pod) (realtime_backpressure_paused_sockets)', '{{pod}} paused'],
      ['sum(rate(realtime_commit_failures_total[5m]))', 'commit failures/s'],
    ])
    .graph('Updates per group commit (median)', 'short', [
      ['histogram_quantile(0.5, sum by (le) (rate(realtime_commit_batch_updates_bucket[5m])))', 'p50'],
    ])
    .graph('Relay lag between replicas p99', 's', [['histogram_quantile(0.99, sum by (le) (rate(realtime_relay_lag_seconds_bucket[5m])))', 'p99']]);
  return dashboard('whiteboard-realtime', 'Whiteboard / Realtime', l);
}

function events(services: readonly ServiceTopology[]): Dashboard {
  const consumers = monitoredServices(services).flatMap((s) => s.needs.nats?.consumers ?? []);
  const l = new Layout();
  l.row('Outbox (written, not yet published)')
    .graph('Unpublished outbox rows', 'short', [['max by (service) (events_outbox_unpublished)', '{{service}}']])
    .graph('Oldest unpublished row', 's', [['max by (service) (events_outbox_oldest_unpublished_seconds)', '{{service}}']]);
  l.row('Durable consumers').graph(
    'Events not yet handled, by consumer',
    'short',
    [[`max by (consumer) (events_consumer_pending{consumer=~"${consumers.join('|')}"})`, '{{consumer}}']],
    24,
  );
  return dashboard('whiteboard-events', 'Whiteboard / Events', l);
}

function exports(): Dashboard {
  const l = new Layout();
  l.row('Queue')
    .graph('Exports rendering and waiting', 'short', [['sum by (state) (export_queue)', '{{state}}']])
    .graph('Refused exports', 'ops', [['sum by (reason) (rate(export_refused_total[5m]))', '{{reason}}']])
    .graph('Export request latency', 's', [
      ['histogram_quantile(0.5, sum by (le) (rate(http_request_duration_seconds_bucket{service="export",route=~"/api/export.*"}[5m])))', 'p50'],
      ['histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{service="export",route=~"/api/export.*"}[5m])))', 'p99'],
    ])
    .graph('Exports by status', 'reqps', [
      ['sum by (status) (rate(http_request_duration_seconds_count{service="export",route=~"/api/export.*"}[5m]))', '{{status}}'],
    ]);
  l.row('Pictures')
    .graph('Decoded picture size p95', 'short', [['histogram_quantile(0.95, sum by (le) (rate(export_image_decoded_pixels_bucket[5m])))', 'pixels']])
    .graph('Source pixels shrunk while decoding', 'short', [['sum(rate(export_image_source_pixels_total[5m]))', 'pixels/s']]);
  return dashboard('whiteboard-exports', 'Whiteboard / Exports', l);
}

/** File name (under files/dashboards) → dashboard. */
export function dashboards(services: readonly ServiceTopology[] = TOPOLOGY): Record<string, Dashboard> {
  const has = (n: string) => monitoredServices(services).some((s) => s.name === n);
  return {
    'overview.json': overview(services),
    ...(has('realtime') ? { 'realtime.json': realtime() } : {}),
    'events.json': events(services),
    ...(has('export') ? { 'exports.json': exports() } : {}),
  };
}

/** Every PromQL expression of the dashboards. */
export const dashboardQueries = (d: Record<string, Dashboard> = dashboards()): string[] =>
  Object.values(d).flatMap((x) => x.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr)));
