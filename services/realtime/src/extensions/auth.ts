/**
 * Who is connecting and with which role: an access token (ES256 JWT, verified against auth's
 * JWKS) and/or a share token, then boards' answer for that board.
 */
import { createHash } from 'node:crypto';
import { AppError, appError, clientAddress, type TokenVerifier } from '@wb/service-kit';
import type { AccessClaims } from '@wb/contracts';
import { CloseCode, CloseError } from '../domain/close-codes.ts';
import { AccessCheckFailed, type BoardAccessClient } from '../access.ts';
import type { AuthenticateContext, Extension, Identity } from '../core/types.ts';

const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]+$/;
const SHARE_TOKEN_SHAPE = /^[\w-]{8,256}$/;
const ANON_ID = /^[\w-]{8,64}$/;
import { ANONYMOUS_NAME } from '../domain/presence.ts';
/** Shown in reactions and presence of visitors who came through a link without logging in. */
export { ANONYMOUS_NAME };

export interface Credentials {
  /** The `token` parameter: an access token or a share token (board-page.md §4 step 2). */
  token?: string | null;
  /** Optional second parameter for a logged-in user arriving through a link. */
  share?: string | null;
  /** A random id the client keeps, so anonymous visitors' reactions are theirs to toggle. */
  anon?: string | null;
  /** The peer's address, for per-address limits on anonymous visitors. */
  address?: string;
}

export type AuthResult = { ok: true; identity: Identity } | { ok: false; code: CloseCode };

/** Resolves credentials to an identity; used by the socket hook and the HTTP routes alike. */
export async function resolveIdentity(
  deps: { verifier: TokenVerifier; boards: BoardAccessClient },
  boardId: string,
  creds: Credentials,
): Promise<AuthResult> {
  let claims: AccessClaims | null = null;
  let shareToken = creds.share ?? undefined;
  const token = creds.token ?? undefined;
  if (token && JWT_SHAPE.test(token)) {
    try {
      claims = await deps.verifier.verify(token);
    } catch (err) {
      // Auth's keys out of reach is no verdict on the token: 4500 makes the client retry, 4401 would sign it out.
      if (err instanceof AppError && err.code === 'SERVICE_UNAVAILABLE') return { ok: false, code: CloseCode.INTERNAL_ERROR };
      return { ok: false, code: CloseCode.UNAUTHORIZED };
    }
  } else if (token) {
    shareToken = token;
  }
  if (!claims && !shareToken) return { ok: false, code: CloseCode.UNAUTHORIZED };
  if (shareToken && !SHARE_TOKEN_SHAPE.test(shareToken)) return { ok: false, code: CloseCode.FORBIDDEN };

  let answer;
  try {
    answer = await deps.boards.access(boardId, { userId: claims?.sub, shareToken });
  } catch (err) {
    if (err instanceof AccessCheckFailed) return { ok: false, code: CloseCode.INTERNAL_ERROR };
    throw err;
  }
  if (!answer.board) return { ok: false, code: CloseCode.BOARD_NOT_FOUND };
  if (answer.role === 'none') return { ok: false, code: CloseCode.FORBIDDEN };

  const anon = creds.anon && ANON_ID.test(creds.anon) ? creds.anon : '';
  const reactorId = claims
    ? claims.sub
    : `anon-${createHash('sha256').update(`${shareToken}:${anon}`).digest('hex').slice(0, 24)}`;
  return {
    ok: true,
    identity: {
      role: answer.role,
      userId: claims?.sub ?? null,
      userName: claims?.name ?? ANONYMOUS_NAME,
      reactorId,
      shareToken,
      address: creds.address,
      sessionId: claims?.sid,
      board: answer.board,
    },
  };
}

/** For HTTP routes: the identity, or the refusal as the error the route answers. */
export function identityOrThrow(result: AuthResult): Identity {
  if (result.ok) return result.identity;
  switch (result.code) {
    case CloseCode.UNAUTHORIZED:
      throw appError('TOKEN_INVALID');
    case CloseCode.BOARD_NOT_FOUND:
      throw appError('BOARD_NOT_FOUND');
    case CloseCode.INTERNAL_ERROR:
      throw appError('SERVICE_UNAVAILABLE');
    default:
      throw appError('ACCESS_DENIED');
  }
}

export class Auth implements Extension {
  readonly name = 'auth';
  constructor(private readonly deps: { verifier: TokenVerifier; boards: BoardAccessClient }) {}

  async onAuthenticate(ctx: AuthenticateContext): Promise<Identity> {
    const p = ctx.params;
    const result = await resolveIdentity(this.deps, ctx.boardId, {
      token: p.get('token'),
      share: p.get('share'),
      anon: p.get('anon'),
      address: clientAddress(ctx.request),
    });
    if (!result.ok) throw new CloseError(result.code);
    return result.identity;
  }
}
