// `npm start` runs this: the whole product in one process (see embedded.ts). Signals stop it in
// order; repeated ones (Ctrl+C reaches the whole process group, and npm start forwards it) are ignored.
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
const starting = startEmbedded({ port: config.PORT, dataDir: config.DATA_DIR, logLevel: config.LOG_LEVEL });
// Registered before the start finishes: a signal during start still stops PostgreSQL (it runs detached).
onShutdown(logger, [async () => (await starting.catch(() => undefined))?.stop(), () => stopTracing()]);
// Started by scripts/start.mjs with an IPC channel: when that process is gone, stop as on SIGTERM.
process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
const handle = await starting;
process.stdout.write(
  `\nWhiteboard is running at ${handle.url}\n(PostgreSQL: ${handle.databaseUrl})\n` +
    (handle.mailpitUrl ? `Mail (password reset, e-mail verification) lands in Mailpit: ${handle.mailpitUrl}\n` : '') +
    '\n',
);
