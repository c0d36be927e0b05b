// The chart's PrometheusRule (charts/whiteboard/files/rules.json, read by templates/prometheusrule.yaml),
// generated from the topology manifest: one error-rate and one latency alert per deployed service,
// one lag alert per durable consumer, one outbox alert per service that writes events to an outbox,
// and the realtime, export and pod-restart alerts. docs/operations.md ("Dashboards and alerts") has
// the runbook line of each alert; deploy/test/metrics-names.test.ts checks every metric named here
// against what the services export, except EXTERNAL_METRICS.
import { TOPOLOGY, type ServiceName, type ServiceTopology } from '@wb/topology';

/** Metrics the services do not export: kube-state-metrics' (pod restarts). */
export const EXTERNAL_METRICS = ['kube_pod_container_status_restarts_total'] as const;

/** Replaced by the release's namespace in the template (rules.json is static; the namespace is not). */
export const NAMESPACE_PLACEHOLDER = '__RELEASE_NAMESPACE__';

export interface AlertRule {
  alert: string;
  expr: string;
  for: string;
  labels: { severity: 'warning' | 'critical'; service?: string };
  annotations: { summary: string; description: string; runbook: string };
}

export interface RuleGroup {
  name: string;
  rules: AlertRule[];
}

/** p99 thresholds in seconds. Export renders take seconds by design; its histogram's last finite bucket is 5 s. */
const P99_SECONDS: Partial<Record<ServiceName, number>> = { export: 4 };
const DEFAULT_P99_SECONDS = 1;
/** 5xx share of answers that pages: 5 % over 5 minutes, with at least some traffic (0.1 req/s). */
const ERROR_RATIO = 0.05;
const MIN_RATE = 0.1;

const runbook = (alert: string) => `docs/operations.md#${alert.toLowerCase()}`;

/** Services that run (a package) and answer HTTP through the service kit's histogram. */
export const monitoredServices = (services: readonly ServiceTopology[] = TOPOLOGY) => services.filter((s) => s.package !== undefined);

const camel = (name: string) => name.replace(/(^|-)([a-z])/g, (_m, _d, c: string) => c.toUpperCase());

function httpRules(s: ServiceTopology): AlertRule[] {
  const sel = `service="${s.name}"`;
  const requests = `sum(rate(http_request_duration_seconds_count{${sel}}[5m]))`;
  const errors = `sum(rate(http_request_duration_seconds_count{${sel},status=~"5.."}[5m]))`;
  const p99 = P99_SECONDS[s.name] ?? DEFAULT_P99_SECONDS;
  return [
    {
      alert: `${camel(s.name)}HighErrorRate`,
      expr: `(${errors} / ${requests}) > ${ERROR_RATIO} and ${requests} > ${MIN_RATE}`,
      for: '5m',
      labels: { severity: 'critical', service: s.name },
      annotations: {
        summary: `${s.name}: more than ${ERROR_RATIO * 100} % of answers are 5xx`,
        description: `{{ $value | humanizePercentage }} of the answers of ${s.name} were 5xx over the last 5 minutes.`,
        runbook: runbook('HighErrorRate'),
      },
    },
    {
      alert: `${camel(s.name)}HighLatencyP99`,
      // Unmatched paths (404s of scanners) say nothing about the service's own speed.
      expr: `histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{${sel},route!="unmatched"}[5m]))) > ${p99} and ${requests} > ${MIN_RATE}`,
      for: '10m',
      labels: { severity: 'warning', service: s.name },
      annotations: {
        summary: `${s.name}: p99 latency above ${p99} s`,
        description: `The p99 HTTP latency of ${s.name} is {{ $value | humanizeDuration }} (threshold ${p99} s).`,
        runbook: runbook('HighLatencyP99'),
      },
    },
  ];
}

function eventRules(services: readonly ServiceTopology[]): AlertRule[] {
  const rules: AlertRule[] = [];
  for (const s of services) {
    // Every replica reports the same durable's backlog: max, not sum.
    for (const consumer of s.needs.nats?.consumers ?? []) {
      rules.push({
        alert: `${camel(consumer)}ConsumerLag`,
        expr: `max(events_consumer_pending{consumer="${consumer}"}) > 100`,
        for: '10m',
        labels: { severity: 'warning', service: s.name },
        annotations: {
          summary: `consumer ${consumer} (${s.name}) is behind`,
          description: `The durable consumer ${consumer} has {{ $value }} events not yet handled for 10 minutes.`,
          runbook: runbook('ConsumerLag'),
        },
      });
    }
    // A relay publishes an outbox only where the service writes events in its own PostgreSQL schema.
    if (s.needs.nats?.publishes && s.needs.postgres) {
      rules.push({
        alert: `${camel(s.name)}OutboxBacklog`,
        expr: `max(events_outbox_oldest_unpublished_seconds{service="${s.name}"}) > 120`,
        for: '5m',
        labels: { severity: 'critical', service: s.name },
        annotations: {
          summary: `${s.name}: events wait in the outbox`,
          description: `The oldest unpublished outbox row of ${s.name} is {{ $value | humanizeDuration }} old: the relay cannot publish to NATS.`,
          runbook: runbook('OutboxBacklog'),
        },
      });
    }
  }
  return rules;
}

const realtimeRules: AlertRule[] = [
  {
    alert: 'RealtimePersistenceLag',
    expr: 'max by (pod) (realtime_persistence_lag_seconds) > 2',
    for: '2m',
    labels: { severity: 'critical', service: 'realtime' },
    annotations: {
      summary: 'realtime: accepted board updates are not reaching the document store',
      description: 'On {{ $labels.pod }} the oldest accepted update has waited {{ $value | humanizeDuration }} to be written.',
      runbook: runbook('RealtimePersistenceLag'),
    },
  },
  {
    alert: 'RealtimeBackpressure',
    expr: 'max by (pod) (realtime_backpressure_paused_sockets) > 0',
    for: '5m',
    labels: { severity: 'warning', service: 'realtime' },
    annotations: {
      summary: 'realtime: sockets paused because the document store falls behind',
      description: '{{ $value }} sockets on {{ $labels.pod }} have not been read for 5 minutes.',
      runbook: runbook('RealtimePersistenceLag'),
    },
  },
];

const podRules = (ns: string): AlertRule[] => [
  {
    alert: 'PodRestarting',
    // kube-state-metrics' series (external); the namespace is the release's.
    expr: `increase(kube_pod_container_status_restarts_total{namespace="${ns}"}[15m]) > 2`,
    for: '0m',
    labels: { severity: 'warning' },
    annotations: {
      summary: 'a pod restarts repeatedly',
      description: 'Container {{ $labels.container }} of {{ $labels.pod }} restarted {{ $value }} times in 15 minutes.',
      runbook: runbook('PodRestarting'),
    },
  },
];

const exportRules: AlertRule[] = [
  {
    alert: 'ExportQueueBacklog',
    // EXPORT_MAX_WAITING is 32 per replica by default: half full for 5 minutes means too few render threads.
    expr: 'max by (pod) (export_queue{state="waiting"}) > 16',
    for: '5m',
    labels: { severity: 'warning', service: 'export' },
    annotations: {
      summary: 'export: exports wait for a render thread',
      description: '{{ $value }} exports wait on {{ $labels.pod }}.',
      runbook: runbook('ExportQueueBacklog'),
    },
  },
  {
    alert: 'ExportRefused',
    expr: 'sum(rate(export_refused_total{reason=~"queue-full|timeout"}[5m])) > 0.05',
    for: '5m',
    labels: { severity: 'warning', service: 'export' },
    annotations: {
      summary: 'export: exports refused with 503 (queue full or waited too long)',
      description: '{{ $value }} exports per second are refused.',
      runbook: runbook('ExportQueueBacklog'),
    },
  },
];

/** The rule groups, with NAMESPACE_PLACEHOLDER where the release's namespace goes. */
export function ruleGroups(services: readonly ServiceTopology[] = TOPOLOGY): RuleGroup[] {
  const running = monitoredServices(services);
  const has = (n: ServiceName) => running.some((s) => s.name === n);
  return [
    { name: 'whiteboard.http', rules: running.flatMap(httpRules) },
    { name: 'whiteboard.events', rules: eventRules(running) },
    ...(has('realtime') ? [{ name: 'whiteboard.realtime', rules: realtimeRules }] : []),
    ...(has('export') ? [{ name: 'whiteboard.export', rules: exportRules }] : []),
    { name: 'whiteboard.pods', rules: podRules(NAMESPACE_PLACEHOLDER) },
  ];
}
