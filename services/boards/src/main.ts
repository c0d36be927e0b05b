import { createPool } from '@wb/db';
import { createNatsTransport } from '@wb/events';
import { createLogger, createTokenVerifier, listen, loadConfig, onShutdown, stopTracing } from '@wb/service-kit';
import { createBoardsService, SCHEMA } from './app.ts';
import { BoardsConfigSchema } from './config.ts';

const config = loadConfig(BoardsConfigSchema);
const logger = createLogger('boards', config.logLevel);
if (!config.nats.url) {
  logger.fatal('NATS_URL is required when the boards service runs on its own');
  process.exit(1);
}

const pool = createPool({ url: config.database.url, schema: SCHEMA, max: config.database.poolMax, applicationName: 'boards' });
const transport = await createNatsTransport({ servers: config.nats.url });
const verifier = createTokenVerifier({ jwksUrl: config.auth.jwksUrl });
const service = await createBoardsService({ pool, transport, logger, config, verifier });
await service.start();
const server = await listen(service.app, config.port);
logger.info({ port: server.port }, 'boards listening');

onShutdown(logger, [
  () => server.close(),
  () => service.stop(),
  () => transport.close(),
  () => pool.end(),
  () => stopTracing(),
]);
