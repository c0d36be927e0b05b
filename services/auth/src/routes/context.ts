import type { Request } from 'express';
import { decodeJwt } from 'jose';
import type { Pool } from '@wb/db';
import { bearerToken, type Logger, type RevocationList, type TokenVerifier } from '@wb/service-kit';
import type { AuthConfig } from '../config.ts';
import type { Signer } from '../domain/tokens.ts';
import type { EmailFlows } from '../mail/flows.ts';
import type { UserCache } from '../store/userCache.ts';

/** What the routers share. The signer appears once start() has loaded the key. */
export interface AuthContext {
  pool: Pool;
  config: AuthConfig;
  logger: Logger;
  verifier: TokenVerifier;
  /** Sessions revoked lately; what this replica revokes goes in at once (the verifier checks it). */
  revocations: RevocationList;
  /**
   * Ends sessions everywhere before the caller answers: this replica's list at once, and with NATS
   * every verifier's (resolves when each has acknowledged). Call it after the revocation committed.
   */
  endSessions(sids: readonly string[]): Promise<void>;
  /** After an account's deletion committed (store/users.ts endAccountIn): forgets it here and ends its sessions everywhere. */
  accountEnded(userId: string, sids: readonly string[]): Promise<void>;
  users: UserCache;
  signer(): Signer;
  /** Password reset and e-mail verification links (mail/flows.ts). */
  emails: EmailFlows;
}

/** The session id of an already verified access token (our own `sid` claim, not part of AccessClaims). */
export function currentSessionId(req: Request): string | undefined {
  const token = bearerToken(req);
  if (!token) return undefined;
  const sid = decodeJwt(token).sid;
  return typeof sid === 'string' ? sid : undefined;
}
