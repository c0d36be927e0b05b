/** The export service's own metrics (GET /metrics on its port; docs/architecture.md lists them). */
import { promClient, type Registry } from '@wb/service-kit';
import type { Gate } from './domain/gate.ts';

export interface ExportMetrics {
  /** Each picture's decoded size in pixels: what the render threads draw, never the picture's own size. */
  decodedPixels: promClient.Histogram;
  /** The pictures' own pixels (from their headers) that were shrunk while decoding, not decoded whole. */
  sourcePixels: promClient.Counter;
  /** Exports refused before they ran, by why (user-busy: 429; queue-full, timeout: 503). */
  refused: promClient.Counter<'reason'>;
}

export function createExportMetrics(registry: Registry, gate: Gate): ExportMetrics {
  new promClient.Gauge({
    name: 'export_queue',
    help: 'Exports rendering and waiting for a render thread.',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      this.set({ state: 'running' }, gate.running);
      this.set({ state: 'waiting' }, gate.waiting);
    },
  });
  return {
    decodedPixels: new promClient.Histogram({
      name: 'export_image_decoded_pixels',
      help: 'Pixels each picture of an export was decoded at (its drawn size, within the export budget).',
      buckets: [1e4, 1e5, 1e6, 4e6, 16e6, 64e6],
      registers: [registry],
    }),
    sourcePixels: new promClient.Counter({
      name: 'export_image_source_pixels_total',
      help: 'Pixels the exported pictures have by their headers (shrunk while decoding, never decoded whole).',
      registers: [registry],
    }),
    refused: new promClient.Counter({
      name: 'export_refused_total',
      help: 'Exports refused before rendering, by reason.',
      labelNames: ['reason'],
      registers: [registry],
    }),
  };
}
