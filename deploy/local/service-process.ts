// One service of the local cluster: `node --import tsx deploy/local/service-process.ts @wb/<name>`.
// The same as the service's own main.ts (runService of its definition), found by package name so the
// cluster needs nothing but deploy/services.ts.
import { runService } from '@wb/service-kit/run';
import { loadDefinition } from '../services.ts';

const pkg = process.argv[2];
if (!pkg) {
  process.stderr.write('usage: service-process.ts <package>\n');
  process.exit(2);
}
await runService(await loadDefinition(pkg));
