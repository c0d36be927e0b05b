import { withTransaction, type Pool, type PoolClient, type Queryable } from '@wb/db';
import {
  hashLinkToken,
  LINK_TTL_MS,
  linkState,
  mailBlockedFor,
  newLinkToken,
  type LinkPurpose,
  type LinkState,
  type MailLimit,
} from '../domain/email-links.ts';

// Every time here comes from the injected clock (domain/email-links.ts), not the database's now():
// the tests move that clock to prove expiry and windows without waiting.

/** Stores a new link of `purpose` for the user and answers its token (the only time it exists in clear). */
export async function createLink(db: Queryable, userId: string, email: string, purpose: LinkPurpose, now: Date): Promise<string> {
  const token = newLinkToken();
  await db.query(
    `INSERT INTO email_links (token_hash, user_id, purpose, email, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
    [hashLinkToken(token), userId, purpose, email, now, new Date(now.getTime() + LINK_TTL_MS)],
  );
  return token;
}

export interface ClaimedLink {
  userId: string;
  email: string;
}

/**
 * Uses a link once. The row is locked, so of two concurrent uses of one token exactly one gets
 * 'valid'; the other waits for its commit and then sees it used. `onValid` runs in the same
 * transaction (the password change, the verification), so the link is spent only with its effect.
 */
export function claimLink<T>(
  pool: Pool,
  token: string,
  purpose: LinkPurpose,
  now: Date,
  onValid: (client: PoolClient, link: ClaimedLink) => Promise<T>,
): Promise<{ state: Exclude<LinkState, 'valid'> } | { state: 'valid'; result: T }> {
  return withTransaction(pool, async (client) => {
    const r = await client.query<{ user_id: string; email: string; expires_at: Date; used_at: Date | null }>(
      `SELECT user_id, email, expires_at, used_at FROM email_links WHERE token_hash = $1 AND purpose = $2 FOR UPDATE`,
      [hashLinkToken(token), purpose],
    );
    const row = r.rows[0];
    const state = linkState(row ? { expiresAt: new Date(row.expires_at), usedAt: row.used_at } : null, now);
    if (state !== 'valid') return { state };
    await client.query('UPDATE email_links SET used_at = $2 WHERE token_hash = $1', [hashLinkToken(token), now]);
    return { state: 'valid' as const, result: await onValid(client, { userId: row!.user_id, email: row!.email }) };
  });
}

/** Spends every other open link of the user for `purpose` (a reset done, a newer address to verify). */
export async function spendOpenLinks(db: Queryable, userId: string, purpose: LinkPurpose, now: Date): Promise<void> {
  await db.query('UPDATE email_links SET used_at = $3 WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL', [userId, purpose, now]);
}

/**
 * Counts one mail against `key` and answers how long the key must wait (0 = it may send). A key
 * whose window is over starts a new one. One statement, so concurrent requests on any replica
 * count exactly once each.
 */
export async function countMail(db: Queryable, key: string, limit: MailLimit, now: Date): Promise<number> {
  const { rows } = await db.query<{ count: number; window_start: Date }>(
    `INSERT INTO mail_throttle AS t (key, window_start, count) VALUES ($1, $2, 1)
     ON CONFLICT (key) DO UPDATE
        SET window_start = CASE WHEN t.window_start <= $2 - make_interval(secs => $3 / 1000.0) THEN $2 ELSE t.window_start END,
            count        = CASE WHEN t.window_start <= $2 - make_interval(secs => $3 / 1000.0) THEN 1 ELSE t.count + 1 END
     RETURNING count, window_start`,
    [key, now, limit.windowMs],
  );
  const row = rows[0]!;
  return mailBlockedFor(row.count, new Date(row.window_start), now, limit);
}

/** Housekeeping with the refresh tokens: links and windows that can no longer matter. */
export async function deleteStaleEmailState(db: Queryable, now: Date): Promise<void> {
  await db.query(`DELETE FROM email_links WHERE expires_at < $1::timestamptz - interval '1 day'`, [now]);
  await db.query(`DELETE FROM mail_throttle WHERE window_start < $1::timestamptz - interval '1 day'`, [now]);
}
