import { runService } from '@wb/service-kit/run';
import { adminService } from './app.ts';

await runService(adminService);
