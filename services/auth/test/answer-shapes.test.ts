import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { AuthAnswer, RefreshAnswer, UserAnswer } from '@wb/contracts';
import { startPostgres } from '@wb/testkit';
import { call, register, startAuth, uniqueEmail, type TestAuth } from './helpers.ts';

/**
 * The live answers of the auth service parse with the answer schemas of @wb/contracts (the SPA's
 * User and AuthResponse types are inferred from them). Strict copies are used so that a field
 * added on the server without the contract fails here too.
 */
let pg: Awaited<ReturnType<typeof startPostgres>>;
let auth: TestAuth;

const StrictUser = UserAnswer.extend({ user: UserAnswer.shape.user.strict() }).strict();
const StrictAuth = AuthAnswer.extend({ user: AuthAnswer.shape.user.strict() }).strict();

function expectShape(schema: z.ZodType, body: unknown): void {
  const r = schema.safeParse(body);
  expect(r.success ? [] : r.error.issues).toEqual([]);
}

beforeAll(async () => {
  pg = await startPostgres();
  auth = await startAuth({ serverUrl: pg.url });
});
afterAll(async () => {
  await auth?.close();
  await pg?.stop();
});

describe('answers of the auth service parse with their contract schemas', () => {
  it('register, login and refresh', async () => {
    const email = uniqueEmail('shape');
    const reg = await call(auth.base, 'POST', '/api/auth/register', { body: { email, password: 'Secret123!', name: 'Анна' } });
    expect(reg.status).toBe(201);
    expectShape(StrictAuth, reg.body);
    const login = await call(auth.base, 'POST', '/api/auth/login', { body: { email, password: 'Secret123!' } });
    expect(login.status).toBe(200);
    expectShape(StrictAuth, login.body);
    const refresh = await call(auth.base, 'POST', '/api/auth/refresh', { body: { refreshToken: login.body.refreshToken } });
    expect(refresh.status).toBe(200);
    expectShape(RefreshAnswer.strict(), refresh.body);
  });

  it('verify, profile and a profile change', async () => {
    const u = await register(auth.base);
    for (const path of ['/api/auth/verify', '/api/auth/profile']) {
      const r = await call(auth.base, 'GET', path, { token: u.accessToken });
      expect(r.status).toBe(200);
      expectShape(StrictUser, r.body);
    }
    const changed = await call(auth.base, 'PATCH', '/api/auth/profile', { token: u.accessToken, body: { name: 'Пётр' } });
    expect(changed.body.user.name).toBe('Пётр');
    expectShape(StrictUser, changed.body);
    const settings = await call(auth.base, 'PATCH', '/api/auth/settings', { token: u.accessToken, body: { settings: { theme: 'dark' } } });
    expect(settings.body.user.settings).toEqual({ theme: 'dark' });
    expectShape(StrictUser, settings.body);
  });
});
