/**
 * Every application close code the realtime service sends (RFC 6455 reserves 4000–4999 for
 * applications). The stock y-websocket provider stops reconnecting on 4400–4499 ("reconnecting
 * cannot fix this") and retries everything else, so codes are placed in those ranges on purpose:
 * 44xx mirror HTTP 4xx, 45xx mean "try again (maybe on another replica)", 42xx ask for a resync.
 */
export const CloseCode = {
  /** The server reset its copy (force-save with clearData): reconnect and sync again. */
  RESYNC: 4205,
  MALFORMED_MESSAGE: 4400,
  UNAUTHORIZED: 4401,
  FORBIDDEN: 4403,
  BOARD_NOT_FOUND: 4404,
  TOO_MANY_CONNECTIONS: 4409,
  ACCESS_REVOKED: 4410,
  MESSAGE_TOO_BIG: 4413,
  DOCUMENT_TOO_LARGE: 4422,
  INTERNAL_ERROR: 4500,
  /** The document store cannot be read right now (outage); retrying later works. */
  STORE_UNAVAILABLE: 4502,
  SHUTTING_DOWN: 4503,
  /** The reader fell too far behind (buffer or merged backlog past its limit): reconnect and resync. */
  TOO_SLOW: 4508,
  /** More messages per second than any client needs: reconnect after a pause. */
  RATE_LIMITED: 4529,
} as const;
export type CloseCode = (typeof CloseCode)[keyof typeof CloseCode];

/** Reasons travel in the close frame (at most 123 bytes of UTF-8), so they stay short and English. */
export const CloseReason: Record<CloseCode, string> = {
  [CloseCode.RESYNC]: 'document reset, resync',
  [CloseCode.MALFORMED_MESSAGE]: 'malformed message',
  [CloseCode.UNAUTHORIZED]: 'missing or invalid token',
  [CloseCode.FORBIDDEN]: 'no access to this board',
  [CloseCode.BOARD_NOT_FOUND]: 'board not found',
  [CloseCode.TOO_MANY_CONNECTIONS]: 'too many connections to this board',
  [CloseCode.ACCESS_REVOKED]: 'access revoked',
  [CloseCode.MESSAGE_TOO_BIG]: 'message too big',
  [CloseCode.DOCUMENT_TOO_LARGE]: 'document size limit reached',
  [CloseCode.INTERNAL_ERROR]: 'internal error, retry',
  [CloseCode.STORE_UNAVAILABLE]: 'document store unavailable, retry',
  [CloseCode.SHUTTING_DOWN]: 'server shutting down, reconnect',
  [CloseCode.TOO_SLOW]: 'too slow to keep up, reconnect and resync',
  [CloseCode.RATE_LIMITED]: 'too many messages, slow down',
};

/** Thrown by hooks to refuse or end a connection with a specific code. */
export class CloseError extends Error {
  constructor(
    readonly code: CloseCode,
    reason?: string,
  ) {
    super(reason ?? CloseReason[code]);
  }
}
