// Preloaded before a service's main.ts (`node --import tsx --import @wb/service-kit/tracing-preload
// services/<name>/src/main.ts`) so tracing is hooked in before anything imports express, pg or
// http. Without OTEL_EXPORTER_OTLP_ENDPOINT it does nothing.
import { startTracing } from './tracing.ts';

const fromPath = /services\/([^/]+)\/(?:src|dist)\/main\.[jt]s$/.exec(process.argv[1] ?? '')?.[1];
await startTracing(process.env.OTEL_SERVICE_NAME ?? fromPath ?? 'whiteboard');
