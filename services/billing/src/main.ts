import { runService } from '@wb/service-kit/run';
import { billingService } from './app.ts';

await runService(billingService);
