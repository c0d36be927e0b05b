import argon2 from 'argon2';

/**
 * argon2id at OWASP's baseline (19 MiB, 2 passes, 1 lane): ~30-50 ms per hash here, which keeps
 * login affordable on 2 cores while making offline guessing expensive.
 */
export const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => argon2.hash(password, ARGON2_OPTIONS);

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false; // a malformed stored hash is a failed login, not a 500
  }
}

export const needsRehash = (hash: string) => argon2.needsRehash(hash, ARGON2_OPTIONS);

let dummyHash: Promise<string> | undefined;

/**
 * Verifies against a throwaway hash so that an unknown email costs as much time as a wrong
 * password and the answer's timing does not reveal which addresses are registered.
 */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('dummy-password-for-timing');
  await verifyPassword(await dummyHash, password);
}
