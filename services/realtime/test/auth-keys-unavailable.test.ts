import { describe, expect, it } from 'vitest';
import { createTokenVerifier } from '@wb/service-kit';
import { testTokens } from '@wb/testkit';
import { CloseCode } from '../src/domain/close-codes.ts';
import { resolveIdentity } from '../src/extensions/auth.ts';

describe('admission while auth cannot hand out its keys', () => {
  it('refuses with 4500 (the client retries), not 4401 (which would sign a valid session out)', async () => {
    const token = await (await testTokens({ kid: 'key-1' })).sign({
      sub: '00000000-0000-4000-8000-000000000001',
      name: 'Оля',
      email: 'olya@example.com',
      admin: false,
    });
    const verifier = createTokenVerifier({ jwksUrl: 'http://127.0.0.1:1/internal/jwks' }, { revocations: undefined });
    const boards = {
      access: () => {
        throw new Error('boards must not be asked before the token is known');
      },
    };
    const result = await resolveIdentity({ verifier, boards: boards as never }, '00000000-0000-4000-8000-0000000000b1', { token });
    expect(result).toEqual({ ok: false, code: CloseCode.INTERNAL_ERROR });
    const forged = await resolveIdentity({ verifier, boards: boards as never }, '00000000-0000-4000-8000-0000000000b1', { token: 'a.b.c' });
    expect(forged).toEqual({ ok: false, code: CloseCode.UNAUTHORIZED });
  });
});
