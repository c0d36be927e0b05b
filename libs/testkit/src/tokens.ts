import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import { ACCESS_TOKEN_ALG, ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER } from '@wb/contracts';

export interface TestTokenClaims {
  admin: boolean;
  name?: string;
  email?: string;
  sub?: string;
  /** Claims a test gets wrong on purpose (a token for someone else, from someone else, expired). */
  iss?: string;
  aud?: string;
  /** Seconds since the epoch, or a jose span such as '5m'; one hour by default. */
  exp?: number | string;
}

export interface TestTokens {
  /** The public key set a service's verifier is built from (`createTokenVerifier({ jwks })`). */
  jwks: { keys: JWK[] };
  /** An access token as auth signs it, for a made-up user (a fresh id unless `sub` is given). */
  sign(claims: TestTokenClaims): Promise<string>;
}

/**
 * Access tokens for a service tested without auth: a key pair of the algorithm, issuer and audience
 * auth uses. `privateJwk` signs with a key that already exists (auth's own, read from its table);
 * `kid` names the key in the token header (a foreign key under a known kid).
 */
export async function testTokens(opts: { kid?: string; privateJwk?: JWK } = {}): Promise<TestTokens> {
  const kid = opts.kid ?? 'test';
  const { privateKey, publicJwk } = opts.privateJwk
    ? { privateKey: await importJWK(opts.privateJwk, ACCESS_TOKEN_ALG), publicJwk: withoutPrivatePart(opts.privateJwk) }
    : await (async () => {
        const pair = await generateKeyPair(ACCESS_TOKEN_ALG);
        return { privateKey: pair.privateKey, publicJwk: await exportJWK(pair.publicKey) };
      })();
  const jwk = { ...publicJwk, kid, alg: ACCESS_TOKEN_ALG, use: 'sig' };
  return {
    jwks: { keys: [jwk] },
    sign: ({
      admin,
      name = admin ? 'Админ' : 'Пользователь',
      email = 'test@example.com',
      sub = randomUUID(),
      iss = ACCESS_TOKEN_ISSUER,
      aud = ACCESS_TOKEN_AUDIENCE,
      exp = '1h',
    }) =>
      new SignJWT({ name, email, admin })
        .setProtectedHeader({ alg: ACCESS_TOKEN_ALG, kid })
        .setSubject(sub)
        .setIssuer(iss)
        .setAudience(aud)
        .setIssuedAt()
        .setExpirationTime(exp)
        .sign(privateKey),
  };
}

function withoutPrivatePart(jwk: JWK): JWK {
  const { d: _d, ...pub } = jwk;
  return pub;
}
