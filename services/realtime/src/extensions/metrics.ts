import { promClient, type Registry } from '@wb/service-kit';
import type { CoreStats } from '../core/server.ts';

export interface RealtimeMetrics {
  stats: CoreStats;
  observeRelayLag(seconds: number): void;
}

/** The service's own series; process_* and http_* come from the service kit's registry. */
export function createRealtimeMetrics(
  registry: Registry,
  sources: { connections(): number; documents(): number; persistenceLagMs(): number },
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
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers,
  });
  return {
    stats: {
      bytesIn: (n) => bytesIn.inc(n),
      bytesOut: (n) => bytesOut.inc(n),
      updateIn: () => updatesIn.inc(),
      updatesOut: (n) => n > 0 && updatesOut.inc(n),
      rejected: (reason) => rejected.inc({ reason }),
    },
    observeRelayLag: (s) => relayLag.observe(s),
  };
}
