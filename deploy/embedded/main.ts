import { z } from 'zod';
import { createLogger, env, loadConfig, onShutdown, stopTracing } from '@wb/service-kit';
import { startEmbedded } from './embedded.ts';

const config = loadConfig(
  z.object({
    PORT: env.port(8080),
    DATA_DIR: z.string().optional(),
    LOG_LEVEL: env.logLevel(),
  }),
);
const logger = createLogger('embedded', config.LOG_LEVEL);
const handle = await startEmbedded({ port: config.PORT, dataDir: config.DATA_DIR, logLevel: config.LOG_LEVEL });
process.stdout.write(`\nWhiteboard is running at ${handle.url}\n(PostgreSQL: ${handle.databaseUrl})\n\n`);
onShutdown(logger, [() => handle.stop(), () => stopTracing()]);
