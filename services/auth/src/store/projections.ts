import type { PoolClient } from '@wb/db';

/**
 * The users' plan_name and boards_count as billing's and boards' events tell them (migration 005).
 * Each function runs in the consumer's transaction and returns whether the user's row changed.
 */

/** An entitlements.changed older than the one already applied (a retry overtaken by a later event) changes nothing. */
export async function setPlanName(client: PoolClient, userId: string, planName: string | null, at: string): Promise<boolean> {
  const r = await client.query(
    `UPDATE users SET plan_name = $2, plan_name_at = $3
      WHERE id = $1 AND (plan_name_at IS NULL OR plan_name_at <= $3)`,
    [userId, planName, at],
  );
  return r.rowCount === 1;
}

/**
 * The owner's row is locked first: two replicas handling the same board's created and deleted at
 * once then take turns, and each sees what the other committed.
 */
async function lockOwner(client: PoolClient, userId: string): Promise<{ boards_untracked: number } | null> {
  const r = await client.query<{ boards_untracked: number }>('SELECT boards_untracked FROM users WHERE id = $1 FOR UPDATE', [userId]);
  return r.rows[0] ?? null;
}

async function boardState(client: PoolClient, boardId: string): Promise<'live' | 'deleted' | 'unknown'> {
  const r = await client.query<{ deleted: boolean }>('SELECT deleted FROM user_boards WHERE board_id = $1', [boardId]);
  if (r.rowCount === 0) return 'unknown';
  return r.rows[0].deleted ? 'deleted' : 'live';
}

export async function boardCreated(client: PoolClient, boardId: string, ownerId: string): Promise<boolean> {
  // An owner already deleted: their boards go with them (user.deleted), nothing to count.
  if (!(await lockOwner(client, ownerId))) return false;
  // Known already: a repeat, or its board.deleted came first (tombstone).
  if ((await boardState(client, boardId)) !== 'unknown') return false;
  await client.query('INSERT INTO user_boards (board_id, user_id) VALUES ($1, $2)', [boardId, ownerId]);
  await client.query('UPDATE users SET boards_count = boards_count + 1 WHERE id = $1', [ownerId]);
  return true;
}

export async function boardDeleted(client: PoolClient, boardId: string, ownerId: string): Promise<boolean> {
  const owner = await lockOwner(client, ownerId);
  if (!owner) return false;
  const state = await boardState(client, boardId);
  if (state === 'deleted') return false;
  if (state === 'live') {
    await client.query('UPDATE user_boards SET deleted = true WHERE board_id = $1', [boardId]);
    await client.query('UPDATE users SET boards_count = GREATEST(boards_count - 1, 0) WHERE id = $1', [ownerId]);
    return true;
  }
  await client.query('INSERT INTO user_boards (board_id, user_id, deleted) VALUES ($1, $2, true)', [boardId, ownerId]);
  // Unknown: a board counted before migration 005 (one of boards_untracked), else one whose
  // board.created is still on its way and will find the tombstone.
  if (owner.boards_untracked === 0) return false;
  await client.query(
    'UPDATE users SET boards_untracked = boards_untracked - 1, boards_count = GREATEST(boards_count - 1, 0) WHERE id = $1',
    [ownerId],
  );
  return true;
}
