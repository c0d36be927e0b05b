import { runService } from '@wb/service-kit/run';
import { gatewayService } from './app.ts';

await runService(gatewayService);
