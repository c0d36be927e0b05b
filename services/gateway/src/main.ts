import { createLogger, listen, loadConfig, onShutdown, stopTracing } from '@wb/service-kit';
import { GatewayConfigSchema } from './config.ts';
import { createGateway } from './app.ts';

const config = loadConfig(GatewayConfigSchema);
const logger = createLogger('gateway', config.LOG_LEVEL);
const gateway = createGateway({
  config,
  logger,
  targets: {
    auth: { url: config.AUTH_URL },
    boards: { url: config.BOARDS_URL },
    realtime: { url: config.REALTIME_URL },
    billing: { url: config.BILLING_URL },
    admin: { url: config.ADMIN_URL },
    export: { url: config.EXPORT_URL },
  },
});
const server = await listen(gateway.app, config.PORT);
server.server.on('upgrade', (req, socket, head) => gateway.handleUpgrade?.(req, socket, head));
logger.info({ port: server.port }, 'gateway listening');
onShutdown(logger, [() => server.close(), () => stopTracing()]);
