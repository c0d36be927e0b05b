import { withTransaction, type Pool } from '@wb/db';
import type { JWK } from 'jose';
import { generateSigningKey, type SigningKey } from '../domain/tokens.ts';

type KeyRow = { kid: string; private_jwk: JWK; public_jwk: JWK };
const toKey = (r: KeyRow): SigningKey => ({ kid: r.kid, privateJwk: r.private_jwk, publicJwk: r.public_jwk });
const LATEST = 'SELECT kid, private_jwk, public_jwk FROM signing_keys ORDER BY created_at DESC, kid LIMIT 1';

/**
 * The key every replica signs with. The first replica to start creates it; the advisory lock makes
 * simultaneous first starts agree on one key instead of each generating its own.
 */
export async function loadOrCreateSigningKey(pool: Pool): Promise<SigningKey> {
  const existing = await pool.query<KeyRow>(LATEST);
  if (existing.rows[0]) return toKey(existing.rows[0]);
  return withTransaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock(hashtext('auth:signing-key'))");
    const again = await client.query<KeyRow>(LATEST);
    if (again.rows[0]) return toKey(again.rows[0]);
    const k = await generateSigningKey();
    await client.query('INSERT INTO signing_keys (kid, private_jwk, public_jwk) VALUES ($1, $2, $3)', [
      k.kid,
      JSON.stringify(k.privateJwk),
      JSON.stringify(k.publicJwk),
    ]);
    return k;
  });
}
