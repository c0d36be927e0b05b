// Issue 32 item 2: what `npm start` runs (the embedded runner) no longer turns the test payment
// provider on by itself, and a production start asked to run it refuses to start.
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '@wb/testkit';
import { startEmbedded, type EmbeddedHandle } from '../embedded/embedded.ts';
import { call } from './clients.ts';

const PRO_ID = '00000000-0000-4000-8000-000000000002';
const PRO_MONTH_ID = '00000000-0000-4000-8000-000000000021';

describe('the embedded runner and the test payment provider', () => {
  let handle: EmbeddedHandle | undefined;
  afterAll(async () => {
    await handle?.stop();
  });

  it('without PAYMENTS_TEST_PROVIDER, a new user cannot get Pro: checkout answers CURRENCY_NOT_SUPPORTED, no test page', async () => {
    handle = await startEmbedded({
      port: 0,
      dataDir: await tempDir('embedded-pay'),
      logLevel: 'warn',
      // The test run sets the flag for everyone (libs/testkit global set-up); this start goes without it.
      env: { AUTH_RATE_LIMIT_PER_MIN: '0', PAYMENTS_TEST_PROVIDER: undefined },
    });
    const reg = await call(handle.url, 'POST', '/api/auth/register', { body: { email: 'payer@example.com', password: 'Secret-123', name: 'Павел' } });
    expect(reg.status).toBe(201);
    const token: string = reg.body.accessToken;
    const r = await call(handle.url, 'POST', '/api/billing/checkout', { token, body: { plan_id: PRO_ID, variant_id: PRO_MONTH_ID } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'CURRENCY_NOT_SUPPORTED', error: 'Оплата в этой валюте недоступна' });
    const page = await call(handle.url, 'GET', '/api/billing/test-checkout/00000000-0000-4000-8000-00000000beef');
    expect(page.status).toBe(404);
    const sub = await call(handle.url, 'GET', '/api/billing/subscription', { token });
    expect(sub.body.subscription).toBeNull();
    await handle.stop();
    handle = undefined;
  });

  it('NODE_ENV=production with PAYMENTS_TEST_PROVIDER=1 refuses to start and says why', async () => {
    await expect(
      startEmbedded({
        port: 0,
        dataDir: await tempDir('embedded-pay-prod'),
        logLevel: 'silent',
        // What else a production start insists on is given, so the refusal seen is billing's.
        env: { NODE_ENV: 'production', PAYMENTS_TEST_PROVIDER: '1', SMTP_URL: 'smtp://127.0.0.1:2525' },
      }).then((h) => {
        handle = h;
      }),
    ).rejects.toThrow(/PAYMENTS_TEST_PROVIDER is set under NODE_ENV=production.*never runs in production/);
  });
});
