// `node --import tsx deploy/local/main.ts`: the local cluster in the foreground, for trying the
// multi-process setup by hand (PORT sets the gateway's port, default 8080; REALTIME_REPLICAS the
// realtime replicas behind the gateway, default 1). SIGINT/SIGTERM stop
// every process in order and the runner exits once they have; repeated signals are ignored.
import { createLogger, onShutdown } from '@wb/service-kit';
import { startCluster } from './cluster.ts';

const logger = createLogger('cluster', process.env.LOG_LEVEL ?? 'info');
const starting = startCluster({ port: Number(process.env.PORT ?? 8080), logs: true, realtimeReplicas: Number(process.env.REALTIME_REPLICAS ?? 1) });
onShutdown(logger, [async () => (await starting.catch(() => undefined))?.stop()], 60_000);
const cluster = await starting;
process.stdout.write(
  `\nWhiteboard (local cluster) is running at ${cluster.url}\n` +
    (cluster.mailpitUrl ? `Mail (password reset, e-mail verification) lands in Mailpit: ${cluster.mailpitUrl}\n` : ''),
);
