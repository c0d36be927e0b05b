import { register } from 'node:module';

// The SDK is imported only when tracing is on: loading it cost every service process about a second
// of start-up and tens of MiB, whether or not anything was exported.
let sdk: { shutdown(): Promise<void> } | undefined;

/**
 * Starts OpenTelemetry tracing when OTEL_EXPORTER_OTLP_ENDPOINT is set; a no-op otherwise. It must
 * run before express, pg or http are imported: ESM imports can only be patched through the loader
 * hook registered here, for modules loaded after it. Services therefore start it from the preload
 * `node --import tsx --import @wb/service-kit/tracing-preload services/<name>/src/main.ts`.
 */
export async function startTracing(serviceName: string, env: Record<string, string | undefined> = process.env): Promise<boolean> {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT || sdk) return false;
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  const [{ NodeSDK }, { OTLPTraceExporter }, { HttpInstrumentation }, { ExpressInstrumentation }, { PgInstrumentation }] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-express'),
    import('@opentelemetry/instrumentation-pg'),
  ]);
  const started = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? serviceName,
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [new HttpInstrumentation(), new ExpressInstrumentation(), new PgInstrumentation()],
  });
  started.start();
  sdk = started;
  return true;
}

export async function stopTracing(): Promise<void> {
  await sdk?.shutdown().catch(() => {});
  sdk = undefined;
}
