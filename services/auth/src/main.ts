import { createPool } from '@wb/db';
import { createInProcessTransport, createNatsTransport } from '@wb/events';
import { createLogger, listen, loadConfig, onShutdown, stopTracing } from '@wb/service-kit';
import { AuthConfigSchema } from './config.ts';

const config = loadConfig(AuthConfigSchema);
const logger = createLogger('auth', config.LOG_LEVEL);

const { createAuthService } = await import('./app.ts');
const pool = createPool({ url: config.DATABASE_URL, schema: 'auth', applicationName: 'auth' });
let transport;
if (config.NATS_URL) transport = await createNatsTransport({ servers: config.NATS_URL });
else {
  // Standalone without NATS nothing would receive the events; they are still kept in the outbox.
  logger.warn('NATS_URL not set: events are published in-process only');
  transport = createInProcessTransport();
}

const service = await createAuthService({ pool, transport, logger, config });
await service.start();
const server = await listen(service.app, config.PORT);
logger.info({ port: server.port }, 'auth listening');

onShutdown(logger, [() => server.close(), () => service.stop(), () => transport.close(), () => pool.end(), () => stopTracing()]);
