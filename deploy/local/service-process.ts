// One service of the local cluster: `node --import tsx deploy/local/service-process.ts @wb/<name>`.
// The same as the service's own main.ts (runService of its definition), found by package name so the
// cluster needs nothing but deploy/services.ts. It listens with SO_REUSEPORT so that the system
// update can start its successor on the same port before it stops (cluster.ts), and tells the
// runner over the IPC channel once it listens (the port alone cannot say which process answers).
import { runService } from '@wb/service-kit/run';
import { loadDefinition } from '../services.ts';

const pkg = process.argv[2];
if (!pkg) {
  process.stderr.write('usage: service-process.ts <package>\n');
  process.exit(2);
}
await runService(await loadDefinition(pkg), { reusePort: true });
if (process.send) {
  process.send({ ready: true }, () => process.disconnect?.());
}
