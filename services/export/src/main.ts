import { runService } from '@wb/service-kit/run';
import { exportService } from './app.ts';

await runService(exportService);
