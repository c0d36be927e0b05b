import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFixture } from './helpers.ts';

// A stand-in OTLP/HTTP collector that records what the service exports.
describe('OpenTelemetry tracing', () => {
  const received: Array<{ url: string; body: Buffer }> = [];
  let collector: http.Server;
  let endpoint: string;

  beforeAll(async () => {
    collector = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        received.push({ url: req.url ?? '', body: Buffer.concat(chunks) });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => collector.listen(0, '127.0.0.1', () => r()));
    endpoint = `http://127.0.0.1:${(collector.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((r) => collector.close(() => r())));

  it('exports HTTP server spans named by route when OTEL_EXPORTER_OTLP_ENDPOINT is set', async () => {
    const run = await runFixture('tracing.ts', {
      preload: ['@wb/service-kit/tracing-preload'],
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SERVICE_NAME: 'tracing-fixture' },
    });
    expect(run.stdout, run.stderr).toContain('STATUS 200 TRACING true');
    const traces = received.filter((r) => r.url === '/v1/traces');
    expect(traces.length).toBeGreaterThan(0);
    const body = Buffer.concat(traces.map((t) => t.body)).toString('utf8');
    expect(body).toContain('tracing-fixture');
    expect(body).toContain('/api/things/:id');
  });

  it('exports nothing and starts nothing without the variable', async () => {
    const before = received.length;
    const run = await runFixture('tracing.ts', { preload: ['@wb/service-kit/tracing-preload'] });
    expect(run.stdout).toContain('STATUS 200 TRACING false');
    expect(received.length).toBe(before);
  });
});
