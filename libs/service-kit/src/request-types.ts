import type { Logger } from 'pino';
import type { AccessClaims } from '@wb/contracts';

declare global {
  namespace Express {
    interface Request {
      /** Request id: the caller's x-request-id when well-formed, else a new UUID. */
      id: string;
      log: Logger;
      /** Set by requireAuth / optionalAuth. */
      user?: AccessClaims;
    }
  }
}
export {};
