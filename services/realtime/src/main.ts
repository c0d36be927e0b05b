import { runService } from '@wb/service-kit/run';
import { realtimeService } from './app.ts';

await runService(realtimeService);
