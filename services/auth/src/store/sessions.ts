import { withTransaction, type Pool, type PoolClient, type Queryable } from '@wb/db';
import { decideRefresh, type RefreshDecision } from '../domain/refresh.ts';
import { hashRefreshToken, newRefreshToken } from '../domain/tokens.ts';
import type { UserRow } from '../domain/users.ts';
import { deleteStaleThrottleState } from './throttle.ts';

export async function issueRefreshToken(db: Queryable, sessionId: string, ttlSeconds: number): Promise<string> {
  const token = newRefreshToken();
  await db.query(
    `INSERT INTO refresh_tokens (token_hash, session_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))`,
    [hashRefreshToken(token), sessionId, ttlSeconds],
  );
  return token;
}

/** A new session (token family) for a login or registration. */
export async function createSession(client: PoolClient, userId: string, ttlSeconds: number): Promise<{ sessionId: string; refreshToken: string }> {
  const r = await client.query<{ id: string }>('INSERT INTO sessions (user_id) VALUES ($1) RETURNING id', [userId]);
  const sessionId = r.rows[0].id;
  return { sessionId, refreshToken: await issueRefreshToken(client, sessionId, ttlSeconds) };
}

export type RotateResult =
  | { ok: true; user: UserRow; sessionId: string; refreshToken: string }
  | { ok: false; reason: Exclude<RefreshDecision, 'rotate'> | 'unknown'; revoked?: string[] };

/**
 * One refresh. The token row is locked (FOR UPDATE), so of N concurrent requests with the same
 * token exactly one sees it unused and rotates it; the others wait for that commit, then see it
 * used a moment ago ('race'). Each token's expiry slides: a new token lives the full TTL.
 */
export function rotateRefreshToken(pool: Pool, token: string, opts: { ttlSeconds: number; graceMs: number }): Promise<RotateResult> {
  return withTransaction(pool, async (client): Promise<RotateResult> => {
    const r = await client.query<{
      session_id: string;
      expires_at: string;
      used_at: string | null;
      revoked_at: string | null;
      db_now: string;
      user_id: string;
    }>(
      `SELECT rt.session_id, rt.expires_at, rt.used_at, s.revoked_at, s.user_id, clock_timestamp() AS db_now
         FROM refresh_tokens rt JOIN sessions s ON s.id = rt.session_id
        WHERE rt.token_hash = $1
        FOR UPDATE OF rt`,
      [hashRefreshToken(token)],
    );
    const row = r.rows[0];
    if (!row) return { ok: false, reason: 'unknown' };
    // The database clock, not this replica's, decides: replicas' clocks may drift.
    const decision = decideRefresh(
      { expiresAt: new Date(row.expires_at), usedAt: row.used_at ? new Date(row.used_at) : null, sessionRevoked: row.revoked_at !== null },
      new Date(row.db_now),
      opts.graceMs,
    );
    if (decision === 'reuse') {
      return { ok: false, reason: decision, revoked: await revokeSession(client, row.session_id, 'reuse') };
    }
    if (decision !== 'rotate') return { ok: false, reason: decision };
    await client.query('UPDATE refresh_tokens SET used_at = clock_timestamp() WHERE token_hash = $1', [hashRefreshToken(token)]);
    const u = await client.query<UserRow>(
      'SELECT id, name, email, is_admin, plan_name, boards_count, created_at, settings FROM users WHERE id = $1',
      [row.user_id],
    );
    const refreshToken = await issueRefreshToken(client, row.session_id, opts.ttlSeconds);
    return { ok: true, user: u.rows[0], sessionId: row.session_id, refreshToken };
  });
}

const ids = (r: { rows: { id: string }[] }) => r.rows.map((x) => x.id);

// Every revocation answers the ids it revoked: the caller tells the verifiers at once (revocations.add).
// clock_timestamp(), not now(): pollers read "revoked since"; a transaction's start time could already lie behind them.

export async function revokeSession(db: Queryable, sessionId: string, reason: string): Promise<string[]> {
  return ids(
    await db.query<{ id: string }>(
      'UPDATE sessions SET revoked_at = clock_timestamp(), revoke_reason = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING id',
      [sessionId, reason],
    ),
  );
}

/** Logout by refresh token: the token's whole family ends, whatever state the token is in. */
export async function revokeSessionByToken(db: Queryable, token: string, reason: string): Promise<string[]> {
  return ids(
    await db.query<{ id: string }>(
      `UPDATE sessions SET revoked_at = clock_timestamp(), revoke_reason = $2
        WHERE id = (SELECT session_id FROM refresh_tokens WHERE token_hash = $1) AND revoked_at IS NULL RETURNING id`,
      [hashRefreshToken(token), reason],
    ),
  );
}

export async function revokeUserSessions(db: Queryable, userId: string, reason: string, keepSessionId?: string): Promise<string[]> {
  return ids(
    await db.query<{ id: string }>(
      `UPDATE sessions SET revoked_at = clock_timestamp(), revoke_reason = $2
        WHERE user_id = $1 AND revoked_at IS NULL AND ($3::uuid IS NULL OR id <> $3::uuid) RETURNING id`,
      [userId, reason, keepSessionId ?? null],
    ),
  );
}

/**
 * Sessions revoked after `since` (an earlier answer's cursor) and within the access-token lifetime
 * (older ones have no live token left). The cursor lags the database clock by a few seconds, so a
 * revocation whose transaction commits late is still seen; repeats are harmless to the reader.
 */
export async function revokedSince(db: Queryable, since: string | undefined, ttlSeconds: number): Promise<{ sessions: string[]; cursor: string }> {
  const { rows } = await db.query<{ id: string | null; cursor: string }>(
    `WITH t AS (SELECT clock_timestamp() AS now)
     SELECT s.id, to_char((t.now - interval '5 seconds') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor
       FROM t LEFT JOIN sessions s
         ON s.revoked_at IS NOT NULL
        AND s.revoked_at > GREATEST(COALESCE($1::timestamptz, '-infinity'), t.now - make_interval(secs => $2))`,
    [since ?? null, ttlSeconds],
  );
  return { sessions: rows.flatMap((r) => (r.id ? [r.id] : [])), cursor: rows[0]!.cursor };
}

/**
 * Housekeeping: expired tokens can no longer be refreshed nor usefully reused, and a session with
 * no live token left is over.
 */
export async function deleteExpiredTokens(db: Queryable): Promise<void> {
  await db.query('DELETE FROM refresh_tokens WHERE expires_at < now()');
  await db.query('DELETE FROM sessions s WHERE NOT EXISTS (SELECT 1 FROM refresh_tokens rt WHERE rt.session_id = s.id)');
  await deleteStaleThrottleState(db);
}
