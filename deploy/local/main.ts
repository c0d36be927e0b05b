// `node --import tsx deploy/local/main.ts`: the local cluster in the foreground, for trying
// the multi-process setup by hand (PORT sets the gateway's port, default 8080).
import { startCluster } from './cluster.ts';

const cluster = await startCluster({ port: Number(process.env.PORT ?? 8080), logs: true });
process.stdout.write(`\nWhiteboard (local cluster) is running at ${cluster.url}\n`);
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => void cluster.stop().then(() => process.exit(0)));
