import http from 'node:http';
import { connect } from 'nats';
import { createPool } from '@wb/db';
import { createInProcessTransport, createNatsTransport } from '@wb/events';
import { createLogger, createTokenVerifier, listen, loadConfig, onShutdown, stopTracing } from '@wb/service-kit';
import { RealtimeEnv, limitsFromEnv } from './config.ts';
import { createBoardAccessClient } from './access.ts';
import { createMongoStore } from './store/mongo.ts';
import { createPostgresStore, REALTIME_SCHEMA } from './store/postgres.ts';
import { createRealtimeService } from './app.ts';

const config = loadConfig(RealtimeEnv);
const logger = createLogger('realtime', config.LOG_LEVEL);

let pool: ReturnType<typeof createPool> | undefined;
let store;
if (config.MONGO_URL) {
  store = await createMongoStore({ url: config.MONGO_URL, dbName: config.MONGO_DB });
} else if (config.DATABASE_URL) {
  pool = createPool({ url: config.DATABASE_URL, schema: REALTIME_SCHEMA, applicationName: 'realtime' });
  store = createPostgresStore(pool);
} else {
  process.stderr.write('Invalid configuration:\n  MONGO_URL or DATABASE_URL is required\n');
  process.exit(1);
}

// Two connections on purpose: the relay's latency-sensitive traffic never queues behind JetStream acks.
const nats = config.NATS_URL
  ? await connect({ servers: config.NATS_URL, name: 'realtime-relay', maxReconnectAttempts: -1, waitOnFirstConnect: true })
  : undefined;
const transport = config.NATS_URL
  ? await createNatsTransport({ servers: config.NATS_URL, name: 'realtime', logger })
  : createInProcessTransport({ logger });

const service = await createRealtimeService({
  logger,
  store,
  verifier: createTokenVerifier({ jwksUrl: config.AUTH_JWKS_URL }),
  boards: createBoardAccessClient(config.BOARDS_INTERNAL_URL),
  transport,
  nats,
  replicaId: config.REPLICA_ID,
  limits: limitsFromEnv(config),
});
await service.start();

const httpServer = http.createServer(service.app);
httpServer.on('upgrade', (req, socket, head) => service.handleUpgrade!(req, socket, head));
const running = await listen(httpServer, config.PORT);
logger.info({ port: running.port, replica: service.replicaId, store: config.MONGO_URL ? 'mongo' : 'postgres' }, 'realtime listening');

onShutdown(logger, [
  () => service.stop(),
  () => running.close(),
  () => transport.close(),
  async () => {
    await nats?.drain();
  },
  () => store.close(),
  async () => {
    await pool?.end();
  },
  () => stopTracing(),
]);
