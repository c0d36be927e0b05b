import type { IncomingMessage } from 'node:http';
import type { BoardRole } from '@wb/contracts';
import type { Room } from './room.ts';
import type { Connection } from './connection.ts';

/** Who is on the other end of a connection or request, as decided by the auth extension. */
export interface Identity {
  role: BoardRole;
  /** Null for anonymous share-link visitors. */
  userId: string | null;
  userName: string;
  /** Stable id written into reactions: the user id, or a pseudonym for anonymous visitors. */
  reactorId: string;
  /** The share token it came with, kept to re-check or revoke access when sharing changes. */
  shareToken?: string;
  /** The peer's address, for per-address limits on anonymous visitors. */
  address?: string;
  /** The access token's session (`sid`): its socket closes when the session is revoked (logout, password change). */
  sessionId?: string;
  board: { id: string; owner_id: string; title: string };
}

/** Transaction origins that are not a client connection. */
export const Origin = {
  /** Replaying stored state or log: already persisted, never logged or relayed again. */
  LOAD: Symbol('load'),
  /** Received from another replica: that replica logged it. */
  RELAY: Symbol('relay'),
  /** Applied by the server on a user's behalf (reactions): logged and relayed like a client's. */
  SERVER: Symbol('server'),
  /**
   * Clients' updates of one group commit, applied in one transaction; the core queues each for
   * sending with its own connection (so nobody gets their own back), not the transaction's update.
   */
  COMMITTED: Symbol('committed'),
} as const;

/** Changes this replica accepted itself and therefore must persist and relay. */
export const isLocalChange = (origin: unknown): boolean =>
  origin === Origin.SERVER || (typeof origin === 'object' && origin !== null && 'isConnection' in origin);

export type UnloadMode = 'compact' | 'flush' | 'discard';

export interface AuthenticateContext {
  boardId: string;
  params: URLSearchParams;
  request: IncomingMessage;
}

/**
 * A feature of the server. Hooks run in registration order; a throw from onAuthenticate or
 * onConnect (a CloseError) refuses the connection with that close code.
 */
export interface Extension {
  name: string;
  onAuthenticate?(ctx: AuthenticateContext): Promise<Identity | undefined>;
  onConnect?(ctx: { room: Room; connection: Connection }): void;
  /** Fill the empty document (store, other replicas) before anyone sees it. */
  onLoadDocument?(room: Room): Promise<void>;
  afterLoadDocument?(room: Room): Promise<void>;
  /** Every change of a loaded document; `origin` tells where it came from. */
  onChange?(room: Room, update: Uint8Array, origin: unknown): void;
  /** This replica's accepted updates of one group commit, merged, now durable (relay them). */
  afterCommit?(room: Room, merged: Uint8Array): void;
  /** Coalesced awareness changes of one turn; origin is the single source, or null when mixed. */
  onAwarenessUpdate?(room: Room, update: Uint8Array, origin: unknown): void;
  /** False refuses a reaction (rate limits). */
  allowReaction?(who: Identity): boolean;
  onDisconnect?(ctx: { room: Room; connection: Connection }): void;
  /**
   * The document leaves memory: 'compact' when the last user left or on shutdown, 'flush' when a
   * suspect copy is dropped (accepted updates are kept, the copy is not written as state),
   * 'discard' when the board was deleted.
   */
  beforeUnloadDocument?(room: Room, mode: UnloadMode): Promise<void>;
  afterUnloadDocument?(room: Room): void;
  /** Graceful shutdown, after every connection was closed. */
  onDestroy?(): Promise<void>;
}
