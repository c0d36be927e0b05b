import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '@wb/db';
import { blockAfter, type ThrottlePolicy } from '../domain/throttle.ts';

/** Milliseconds until every one of `keys` may try again (0 = now). The database clock decides. */
export async function blockedFor(db: Queryable, keys: string[]): Promise<number> {
  const { rows } = await db.query<{ ms: number | null }>(
    `SELECT ceil(extract(epoch FROM max(blocked_until) - clock_timestamp()) * 1000)::float8 AS ms
       FROM login_throttle WHERE key = ANY($1::text[])`,
    [keys],
  );
  return Math.max(0, rows[0]?.ms ?? 0);
}

/**
 * Counts one failure of `key` (atomically, whatever replica) and blocks it for the policy's delay.
 * A key idle for longer than `forgetAfterMs` starts from one again.
 */
export async function recordFailure(db: Queryable, key: string, policy: ThrottlePolicy): Promise<number> {
  const { rows } = await db.query<{ failures: number }>(
    `INSERT INTO login_throttle AS t (key, failures, blocked_until, last_failure)
          VALUES ($1, 1, clock_timestamp(), clock_timestamp())
     ON CONFLICT (key) DO UPDATE
        SET failures = CASE WHEN t.last_failure < clock_timestamp() - make_interval(secs => $2 / 1000.0) THEN 1 ELSE t.failures + 1 END,
            last_failure = clock_timestamp()
     RETURNING failures`,
    [key, policy.forgetAfterMs],
  );
  const failures = rows[0]!.failures;
  const ms = blockAfter(failures, policy);
  if (ms > 0) {
    await db.query(`UPDATE login_throttle SET blocked_until = clock_timestamp() + make_interval(secs => $2 / 1000.0) WHERE key = $1`, [key, ms]);
  }
  return failures;
}

export async function clearFailures(db: Queryable, keys: string[]): Promise<void> {
  await db.query('DELETE FROM login_throttle WHERE key = ANY($1::text[])', [keys]);
}

const hashDevice = (token: string) => createHash('sha256').update(token).digest();
export const deviceHashHex = (token: string) => hashDevice(token).toString('hex');

/** Remembers this browser as one the user signed in from; answers the cookie's value. */
export async function trustDevice(db: Queryable, userId: string, ttlSeconds: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.query(
    `INSERT INTO trusted_devices (token_hash, user_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))`,
    [hashDevice(token), userId, ttlSeconds],
  );
  return token;
}

/** Whether `token` is a live device cookie of `userId`. */
export async function isTrustedDevice(db: Queryable, token: string, userId: string): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM trusted_devices WHERE token_hash = $1 AND user_id = $2 AND expires_at > now()', [
    hashDevice(token),
    userId,
  ]);
  return (rowCount ?? 0) > 0;
}

/** Housekeeping with the refresh tokens: forgotten throttle keys and expired devices. */
export async function deleteStaleThrottleState(db: Queryable): Promise<void> {
  await db.query(`DELETE FROM login_throttle WHERE last_failure < now() - interval '1 day' AND blocked_until < now()`);
  await db.query('DELETE FROM trusted_devices WHERE expires_at < now()');
}
