import { runService } from '@wb/service-kit/run';
import { authService } from './app.ts';

await runService(authService);
