import { createHash, createPrivateKey, generateKeyPairSync, randomBytes, type JsonWebKey } from 'node:crypto';
import { calculateJwkThumbprint, importJWK, SignJWT, type CryptoKey, type JWK, type JSONWebKeySet } from 'jose';
import { ACCESS_TOKEN_ALG, ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER } from '@wb/contracts';

export interface SigningKey {
  kid: string;
  privateJwk: JWK;
  publicJwk: JWK;
}

export interface Signer {
  kid: string;
  jwks: JSONWebKeySet;
  key: CryptoKey;
}

const publicPart = (jwk: JsonWebKey): JWK => ({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y });

async function fromPrivateJwk(jwk: JsonWebKey): Promise<SigningKey> {
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || !jwk.d) throw new Error('the auth signing key must be an EC P-256 private key');
  const publicJwk = publicPart(jwk);
  return { kid: await calculateJwkThumbprint(publicJwk), privateJwk: { ...publicJwk, d: jwk.d }, publicJwk };
}

export const generateSigningKey = () =>
  fromPrivateJwk(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }));

/** PKCS#8 or SEC1 PEM. Literal "\n" sequences are accepted, as env files often carry them. */
export const signingKeyFromPem = (pem: string) =>
  fromPrivateJwk(createPrivateKey(pem.replace(/\\n/g, '\n')).export({ format: 'jwk' }));

export async function createSigner(k: SigningKey): Promise<Signer> {
  const key = (await importJWK(k.privateJwk, ACCESS_TOKEN_ALG)) as CryptoKey;
  return { kid: k.kid, key, jwks: { keys: [{ ...k.publicJwk, kid: k.kid, alg: ACCESS_TOKEN_ALG, use: 'sig' }] } };
}

export interface AccessTokenSubject {
  id: string;
  name: string;
  email: string;
  isAdmin: boolean;
}

/**
 * `sid` (the session) is ours only: services see {sub, name, email, admin}; auth uses sid to
 * keep the caller's own session alive when a password change revokes the others.
 */
export function signAccessToken(signer: Signer, user: AccessTokenSubject, sessionId: string, ttlSeconds: number): Promise<string> {
  return new SignJWT({ name: user.name, email: user.email, admin: user.isAdmin, sid: sessionId })
    .setProtectedHeader({ alg: ACCESS_TOKEN_ALG, kid: signer.kid, typ: 'JWT' })
    .setSubject(user.id)
    .setIssuer(ACCESS_TOKEN_ISSUER)
    .setAudience(ACCESS_TOKEN_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(signer.key);
}

/** Opaque refresh token: 32 random bytes; only its sha256 is stored. */
export const newRefreshToken = () => randomBytes(32).toString('base64url');
export const hashRefreshToken = (token: string) => createHash('sha256').update(token).digest();
