import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { ACCESS_TOKEN_ALG, ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER } from '@wb/contracts';

export interface TestTokens {
  /** The public key set a service's verifier is built from (`createTokenVerifier({ jwks })`). */
  jwks: { keys: JWK[] };
  /** An access token as auth signs it, for a made-up user (a fresh id unless `sub` is given). */
  sign(claims: { admin: boolean; name?: string; email?: string; sub?: string }): Promise<string>;
}

/** Access tokens for a service tested without auth: a key pair of the algorithm, issuer and audience auth uses. */
export async function testTokens(): Promise<TestTokens> {
  const { privateKey, publicKey } = await generateKeyPair(ACCESS_TOKEN_ALG);
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test', alg: ACCESS_TOKEN_ALG, use: 'sig' };
  return {
    jwks: { keys: [jwk] },
    sign: ({ admin, name = admin ? 'Админ' : 'Пользователь', email = 'test@example.com', sub = randomUUID() }) =>
      new SignJWT({ name, email, admin })
        .setProtectedHeader({ alg: ACCESS_TOKEN_ALG, kid: 'test' })
        .setSubject(sub)
        .setIssuer(ACCESS_TOKEN_ISSUER)
        .setAudience(ACCESS_TOKEN_AUDIENCE)
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(privateKey),
  };
}
