import { withTransaction, type Pool } from '@wb/db';
import { hashPassword, verifyPassword } from '../domain/passwords.ts';
import { insertUser } from './users.ts';
import { revokeUserSessions } from './sessions.ts';

export type AdminBootstrapResult = 'created' | 'promoted' | 'password_updated' | 'unchanged';

/**
 * Makes ADMIN_EMAIL an administrator with ADMIN_PASSWORD. Idempotent: a restart with the same
 * values changes nothing (the hash is only rewritten when the password no longer matches, and then
 * the account's sessions are revoked like on any password change). Replicas starting together
 * serialise on an advisory lock.
 */
export async function bootstrapAdmin(pool: Pool, email: string, password: string): Promise<AdminBootstrapResult> {
  const address = email.trim();
  return withTransaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock(hashtext('auth:admin-bootstrap'))");
    const r = await client.query<{ id: string; is_admin: boolean; password_hash: string }>(
      'SELECT id, is_admin, password_hash FROM users WHERE lower(email) = lower($1) FOR UPDATE',
      [address],
    );
    const cur = r.rows[0];
    if (!cur) {
      await insertUser(client, { name: 'Администратор', email: address, passwordHash: await hashPassword(password), isAdmin: true });
      return 'created';
    }
    let result: AdminBootstrapResult = 'unchanged';
    if (!cur.is_admin) {
      await client.query('UPDATE users SET is_admin = true, updated_at = now() WHERE id = $1', [cur.id]);
      result = 'promoted';
    }
    if (!(await verifyPassword(cur.password_hash, password))) {
      await client.query('UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1', [cur.id, await hashPassword(password)]);
      await revokeUserSessions(client, cur.id, 'admin_bootstrap');
      result = 'password_updated';
    }
    return result;
  });
}
