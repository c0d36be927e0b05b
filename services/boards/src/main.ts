import { runService } from '@wb/service-kit/run';
import { boardsService } from './app.ts';

await runService(boardsService);
