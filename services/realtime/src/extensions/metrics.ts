import { promClient, type Registry } from '@wb/service-kit';
import type { CoreStats } from '../core/server.ts';

export interface RealtimeMetrics {
  stats: CoreStats;
  observeRelayLag(seconds: number): void;
}

/** The service's own series; process_* and http_* come from the service kit's registry. */
export function createRealtimeMetrics(
  registry: Registry,
  sources: { connections(): number; documents(): number; persistenceLagMs(): number; backlogBytes(): number; pausedSockets(): number; journalBytes(): number },
): RealtimeMetrics {
  const registers = [registry];
  new promClient.Gauge({
    name: 'realtime_connections',
    help: 'Open WebSocket connections',
    registers,
    collect() {
      this.set(sources.connections());
    },
  });
  new promClient.Gauge({
    name: 'realtime_documents_loaded',
    help: 'Board documents held in memory',
    registers,
    collect() {
      this.set(sources.documents());
    },
  });
  new promClient.Gauge({
    name: 'realtime_persistence_lag_seconds',
    help: 'Age of the oldest accepted update not yet appended to the log',
    registers,
    collect() {
      this.set(sources.persistenceLagMs() / 1000);
    },
  });
  new promClient.Gauge({
    name: 'realtime_commit_backlog_bytes',
    help: 'Accepted update bytes waiting for the group commit (backpressure starts at MAX_PENDING_BYTES)',
    registers,
    collect() {
      this.set(sources.backlogBytes());
    },
  });
  new promClient.Gauge({
    name: 'realtime_journal_unshipped_bytes',
    help: 'Updates in the local journal not yet shipped to the document store (UPDATE_LOG_JOURNAL_DIR)',
    registers,
    collect() {
      this.set(sources.journalBytes());
    },
  });
  new promClient.Gauge({
    name: 'realtime_backpressure_paused_sockets',
    help: 'Sockets not being read because the document store fell behind',
    registers,
    collect() {
      this.set(sources.pausedSockets());
    },
  });
  const durable = new promClient.Histogram({
    name: 'realtime_durability_window_seconds',
    help: 'From accepting an update to it being in the store (and only then visible to others)',
    buckets: [0.0005, 0.001, 0.0015, 0.002, 0.003, 0.004, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.05, 0.1, 0.25, 1, 5],
    registers,
  });
  const batchUpdates = new promClient.Histogram({
    name: 'realtime_commit_batch_updates',
    help: 'Updates written by one group commit',
    buckets: [1, 2, 5, 10, 20, 50, 100, 500],
    registers,
  });
  const commitFailures = new promClient.Counter({ name: 'realtime_commit_failures_total', help: 'Group commits that failed and were retried', registers });
  const updatesIn = new promClient.Counter({ name: 'realtime_updates_in_total', help: 'Document updates received from clients', registers });
  const updatesOut = new promClient.Counter({ name: 'realtime_updates_out_total', help: 'Document updates sent to clients', registers });
  const bytesIn = new promClient.Counter({ name: 'realtime_bytes_in_total', help: 'WebSocket bytes received', registers });
  const bytesOut = new promClient.Counter({ name: 'realtime_bytes_out_total', help: 'WebSocket bytes sent', registers });
  const rejected = new promClient.Counter({
    name: 'realtime_rejected_total',
    help: 'Refused connections and messages, by close code or reason',
    labelNames: ['reason'] as const,
    registers,
  });
  const relayLag = new promClient.Histogram({
    name: 'realtime_relay_lag_seconds',
    help: 'Publish to receive delay of updates relayed between replicas over NATS',
    buckets: [0.00025, 0.0005, 0.001, 0.002, 0.003, 0.005, 0.0075, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers,
  });
  return {
    stats: {
      bytesIn: (n) => bytesIn.inc(n),
      bytesOut: (n) => n > 0 && bytesOut.inc(n),
      updateIn: () => updatesIn.inc(),
      updatesOut: (n) => n > 0 && updatesOut.inc(n),
      rejected: (reason) => rejected.inc({ reason }),
      durableMs: (ms) => durable.observe(ms / 1000),
      commitBatch: (_entries, updates) => batchUpdates.observe(updates),
      commitFailed: () => commitFailures.inc(),
    },
    observeRelayLag: (s) => relayLag.observe(s),
  };
}
