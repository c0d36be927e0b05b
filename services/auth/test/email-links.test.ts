/**
 * Password reset and e-mail verification by real e-mail (issue 32, item 11): a real PostgreSQL, a
 * real Mailpit as the SMTP server, the mails read back through Mailpit's API (mailpit-api). Time
 * is moved through the service's injected clock, never waited for.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MailpitClient } from 'mailpit-api';
import { parseConfig } from '@wb/service-kit';
import { startMailpit, startPostgres, type MailpitHandle } from '@wb/testkit';
import { AuthConfigSchema } from '../src/app.ts';
import { call, register, uniqueEmail } from './helpers.ts';
import { linkToken, mailsTo, PUBLIC_URL, startMailAuth, waitForMail, type MailAuth } from './mail-helpers.ts';

let pg: Awaited<ReturnType<typeof startPostgres>>;
let mailpitServer: MailpitHandle;
let mailpit: MailpitClient;
let auth: MailAuth;

beforeAll(async () => {
  [pg, mailpitServer] = await Promise.all([startPostgres(), startMailpit()]);
  mailpit = new MailpitClient(mailpitServer.apiUrl);
  auth = await startMailAuth(pg.url, mailpitServer);
}, 60_000);

afterAll(async () => {
  await auth?.close();
  await mailpitServer?.stop();
  await pg?.stop();
});

const HOUR = 60 * 60_000;
// Each test comes from its own client address, so the per-address budget of one does not limit another.
let addressCounter = 0;
const newClient = () => `203.0.113.${++addressCounter}`;
const post = (path: string, body: unknown, opts: { ip?: string; token?: string } = {}) =>
  call(auth.base, 'POST', path, { body, token: opts.token, headers: { 'x-forwarded-for': opts.ip ?? newClient() } });
const RESET_SUBJECT = 'Сброс пароля';
const VERIFY_SUBJECT = 'Подтверждение email';

async function requestResetLink(email: string, ip = newClient()) {
  const before = (await mailsTo(mailpit, email)).filter((m) => m.Subject.includes(RESET_SUBJECT)).length;
  const r = await post('/api/auth/password-reset/request', { email }, { ip });
  expect(r.status).toBe(202);
  const mail = await waitForMail(mailpit, email, RESET_SUBJECT, before + 1);
  return linkToken(mail.Text, '/reset-password');
}

describe('password reset by e-mail', () => {
  it('sends a Russian mail with a one-hour link; the link sets a new password and ends every session', async () => {
    const u = await register(auth.base);
    const r = await post('/api/auth/password-reset/request', { email: `  ${u.email.toUpperCase()} ` });
    expect(r.status).toBe(202);
    expect(r.body).toEqual({ message: 'Если этот адрес зарегистрирован, мы отправили на него письмо со ссылкой для сброса пароля. Ссылка действует 1 час.' });

    const mail = await waitForMail(mailpit, u.email, RESET_SUBJECT);
    expect(mail.Subject).toBe('Сброс пароля — Холст');
    expect(mail.From.Address).toBe('no-reply@board.example.test');
    expect(mail.To.map((t) => t.Address)).toEqual([u.email]);
    expect(mail.Text).toContain('Здравствуйте, Иван Петров!');
    expect(mail.Text).toContain('Ссылка действует 1 час и только один раз.');
    const token = linkToken(mail.Text, '/reset-password');
    expect(mail.HTML).toContain(`${PUBLIC_URL}/reset-password?token=${token}`);
    // Only a hash is stored: the token itself is nowhere in the table.
    const rows = await auth.pool.query<{ token_hash: Buffer }>(`SELECT token_hash FROM email_links WHERE purpose = 'password_reset'`);
    expect(rows.rows.length).toBeGreaterThan(0);
    for (const row of rows.rows) expect(row.token_hash.toString('base64url')).not.toBe(token);

    const ok = await post('/api/auth/password-reset/confirm', { token, password: 'Новый-пароль-42' });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ message: 'Пароль изменён. Войдите с новым паролем' });

    // The old password is gone, the new one works, and the sessions from before are over.
    expect((await post('/api/auth/login', { email: u.email, password: u.password })).status).toBe(401);
    expect((await post('/api/auth/login', { email: u.email, password: 'Новый-пароль-42' })).status).toBe(200);
    expect((await call(auth.base, 'GET', '/api/auth/verify', { token: u.accessToken })).status).toBe(401);
    const refresh = await post('/api/auth/refresh', { refreshToken: u.refreshToken });
    expect(refresh.status).toBe(401);
    // Opening a link sent to the account's address also proves that address.
    const login = await post('/api/auth/login', { email: u.email, password: 'Новый-пароль-42' });
    expect(login.body.user.emailVerified).toBe(true);
  });

  it('a link works once: a second use, even concurrent, is refused with a Russian text', async () => {
    const u = await register(auth.base);
    const token = await requestResetLink(u.email);
    const both = await Promise.all([
      post('/api/auth/password-reset/confirm', { token, password: 'Первый-пароль-1' }),
      post('/api/auth/password-reset/confirm', { token, password: 'Второй-пароль-2' }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 410]);
    const refused = both.find((r) => r.status === 410)!;
    expect(refused.body).toMatchObject({ code: 'RESET_TOKEN_USED', error: 'Эта ссылка для сброса пароля уже использована. Запросите новую' });
    const winner = both[0]!.status === 200 ? 'Первый-пароль-1' : 'Второй-пароль-2';
    expect((await post('/api/auth/login', { email: u.email, password: winner })).status).toBe(200);
    const again = await post('/api/auth/password-reset/confirm', { token, password: 'Третий-пароль-3' });
    expect(again.status).toBe(410);
    expect(again.body.code).toBe('RESET_TOKEN_USED');
  });

  it('a newer reset spends the older links of the account', async () => {
    const u = await register(auth.base);
    const first = await requestResetLink(u.email);
    const second = await requestResetLink(u.email);
    expect((await post('/api/auth/password-reset/confirm', { token: second, password: 'Новый-пароль-42' })).status).toBe(200);
    expect((await post('/api/auth/password-reset/confirm', { token: first, password: 'Другой-пароль-42' })).body.code).toBe('RESET_TOKEN_USED');
  });

  it('a link expires after one hour (moved on the service clock)', async () => {
    const u = await register(auth.base);
    const early = await requestResetLink(u.email);
    const late = await requestResetLink(u.email);
    auth.clock.advance(HOUR - 1_000);
    expect((await post('/api/auth/password-reset/confirm', { token: early, password: 'Пароль-за-секунду-1' })).status).toBe(200);
    // A fresh link for the next step (the one above spent every open link of the account).
    const fresh = await requestResetLink(u.email);
    void late;
    auth.clock.advance(HOUR + 1_000);
    const expired = await post('/api/auth/password-reset/confirm', { token: fresh, password: 'Опоздавший-пароль-1' });
    expect(expired.status).toBe(410);
    expect(expired.body).toMatchObject({ code: 'RESET_TOKEN_EXPIRED', error: 'Срок действия ссылки для сброса пароля истёк. Запросите новую' });
    expect((await post('/api/auth/login', { email: u.email, password: 'Пароль-за-секунду-1' })).status).toBe(200);
  });

  it('answers an unknown address exactly as a known one, and sends it nothing', async () => {
    const known = await register(auth.base);
    const unknown = uniqueEmail('nobody');
    const a = await post('/api/auth/password-reset/request', { email: unknown });
    const b = await post('/api/auth/password-reset/request', { email: known.email });
    expect(a.status).toBe(b.status);
    expect(a.body).toEqual(b.body);
    await waitForMail(mailpit, known.email, RESET_SUBJECT);
    // The unknown address's request had finished before the known one began: nothing is under way for it.
    expect(await mailsTo(mailpit, unknown)).toEqual([]);
    const links = await auth.pool.query('SELECT 1 FROM email_links WHERE lower(email) = lower($1)', [unknown]);
    expect(links.rowCount).toBe(0);
  });

  it('throttles per address (3 an hour, known or not) and per client address (10 an hour), with Retry-After', async () => {
    for (const email of [(await register(auth.base)).email, uniqueEmail('ghost')]) {
      for (let i = 0; i < 3; i++) expect((await post('/api/auth/password-reset/request', { email })).status).toBe(202);
      const limited = await post('/api/auth/password-reset/request', { email });
      expect(limited.status).toBe(429);
      expect(limited.body).toMatchObject({ code: 'MAIL_RATE_LIMITED', error: 'Слишком много писем за короткое время. Попробуйте позже' });
    }
    const ip = newClient();
    for (let i = 0; i < 10; i++) expect((await post('/api/auth/password-reset/request', { email: uniqueEmail('spray') }, { ip })).status).toBe(202);
    const res = await fetch(`${auth.base}/api/auth/password-reset/request`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
      body: JSON.stringify({ email: uniqueEmail('spray') }),
    });
    expect(res.status).toBe(429);
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    // Another client address is not held back; and an hour later the first one may ask again.
    expect((await post('/api/auth/password-reset/request', { email: uniqueEmail('spray') })).status).toBe(202);
    auth.clock.advance(HOUR);
    expect((await post('/api/auth/password-reset/request', { email: uniqueEmail('spray') }, { ip })).status).toBe(202);
  });

  it('validates with Russian texts and codes, never a 500', async () => {
    const cases: Array<[string, unknown, number, string]> = [
      ['/api/auth/password-reset/request', {}, 400, 'Email обязателен'],
      ['/api/auth/password-reset/request', { email: 'not-an-email' }, 400, 'Некорректный email'],
      ['/api/auth/password-reset/confirm', { token: 'x'.repeat(43) }, 400, 'Пароль обязателен'],
      ['/api/auth/password-reset/confirm', { token: 'x'.repeat(43), password: 'short' }, 400, 'Пароль должен содержать минимум 8 символов'],
      ['/api/auth/password-reset/confirm', { token: 'x'.repeat(43), password: 'x'.repeat(129) }, 400, 'Пароль должен содержать не более 128 символов'],
      ['/api/auth/password-reset/confirm', { token: 'bad token', password: 'Secret123!' }, 400, 'Ссылка для сброса пароля недействительна. Запросите новую'],
      ['/api/auth/verify-email', { token: 'x'.repeat(10_000) }, 400, 'Ссылка для подтверждения email недействительна'],
      ['/api/auth/verify-email', [], 400, 'Некорректные данные запроса'],
    ];
    for (const [path, body, status, error] of cases) {
      const r = await post(path, body);
      expect({ path, body: JSON.stringify(body).slice(0, 60), status: r.status, error: r.body.error }).toEqual({
        path,
        body: JSON.stringify(body).slice(0, 60),
        status,
        error,
      });
      expect(r.body.code).toBe('VALIDATION_ERROR');
    }
    // NUL, lone surrogates and a megabyte: some 4xx with a Russian text (which one is the validator's business).
    const hostile = ['a\u0000b@example.com', '\ud800'.repeat(43), 'я'.repeat(1_000_000)];
    for (const v of hostile) {
      for (const [path, body] of [
        ['/api/auth/password-reset/request', { email: v }],
        ['/api/auth/password-reset/confirm', { token: v, password: v }],
        ['/api/auth/verify-email', { token: v }],
      ] as const) {
        const r = await post(path, body);
        expect(r.status, `${path} ${v.slice(0, 10)}`).toBeGreaterThanOrEqual(400);
        expect(r.status).toBeLessThan(500);
        expect(r.body.error).toMatch(/[а-яё]/i);
      }
    }
    // A well-formed token that was never issued.
    const unknown = await post('/api/auth/password-reset/confirm', { token: 'A'.repeat(43), password: 'Secret123!' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'RESET_TOKEN_INVALID', error: 'Ссылка для сброса пароля недействительна. Запросите новую' });
  });
});

describe('e-mail verification', () => {
  it('registration sends a link; opening it marks the address verified in the profile', async () => {
    const u = await register(auth.base);
    expect(u.user.emailVerified).toBe(false);
    const mail = await waitForMail(mailpit, u.email, VERIFY_SUBJECT);
    expect(mail.Subject).toBe('Подтверждение email — Холст');
    const token = linkToken(mail.Text, '/verify-email');
    const ok = await post('/api/auth/verify-email', { token });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ message: 'Email подтверждён' });
    const profile = await call(auth.base, 'GET', '/api/auth/profile', { token: u.accessToken });
    expect(profile.body.user.emailVerified).toBe(true);
    const again = await post('/api/auth/verify-email', { token });
    expect(again.status).toBe(410);
    expect(again.body).toMatchObject({ code: 'VERIFY_TOKEN_USED', error: 'Эта ссылка для подтверждения email уже использована' });
    // Nothing left to resend.
    const resend = await post('/api/auth/verify-email/resend', {}, { token: u.accessToken });
    expect(resend.status).toBe(409);
    expect(resend.body).toMatchObject({ code: 'EMAIL_ALREADY_VERIFIED', error: 'Email уже подтверждён' });
  });

  it('a new address is unverified and gets its own link; the old address link no longer verifies', async () => {
    const u = await register(auth.base);
    const oldToken = linkToken((await waitForMail(mailpit, u.email, VERIFY_SUBJECT)).Text, '/verify-email');
    expect((await post('/api/auth/verify-email', { token: oldToken })).status).toBe(200);

    const newEmail = uniqueEmail('moved');
    const changed = await call(auth.base, 'PATCH', '/api/auth/change-email', { token: u.accessToken, body: { email: newEmail, currentPassword: u.password } });
    expect(changed.status).toBe(200);
    expect(changed.body.user).toMatchObject({ email: newEmail, emailVerified: false });
    const token = linkToken((await waitForMail(mailpit, newEmail, VERIFY_SUBJECT)).Text, '/verify-email');
    expect((await post('/api/auth/verify-email', { token })).status).toBe(200);
    expect((await call(auth.base, 'GET', '/api/auth/profile', { token: u.accessToken })).body.user.emailVerified).toBe(true);

    // A letter-case change keeps the verification and sends nothing.
    const upper = await call(auth.base, 'PATCH', '/api/auth/profile', { token: u.accessToken, body: { name: u.name, email: newEmail.toUpperCase(), currentPassword: u.password } });
    expect(upper.body.user.emailVerified).toBe(true);
  });

  it('resend: a fresh link (older ones stop working), throttled to 3 an hour per account', async () => {
    const u = await register(auth.base);
    const first = linkToken((await waitForMail(mailpit, u.email, VERIFY_SUBJECT)).Text, '/verify-email');
    const r = await post('/api/auth/verify-email/resend', {}, { token: u.accessToken });
    expect(r.status).toBe(202);
    expect(r.body).toEqual({ message: 'Письмо для подтверждения отправлено' });
    const second = linkToken((await waitForMail(mailpit, u.email, VERIFY_SUBJECT, 2)).Text, '/verify-email');
    expect(second).not.toBe(first);
    expect((await post('/api/auth/verify-email', { token: first })).body.code).toBe('VERIFY_TOKEN_USED');
    expect((await post('/api/auth/verify-email/resend', {}, { token: u.accessToken })).status).toBe(202);
    expect((await post('/api/auth/verify-email/resend', {}, { token: u.accessToken })).status).toBe(202);
    const limited = await post('/api/auth/verify-email/resend', {}, { token: u.accessToken });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('MAIL_RATE_LIMITED');
    expect((await post('/api/auth/verify-email/resend', {})).status).toBe(401);
  });

  it('a verification link expires after one hour', async () => {
    const u = await register(auth.base);
    const token = linkToken((await waitForMail(mailpit, u.email, VERIFY_SUBJECT)).Text, '/verify-email');
    auth.clock.advance(HOUR + 1);
    const r = await post('/api/auth/verify-email', { token });
    expect(r.status).toBe(410);
    expect(r.body).toMatchObject({ code: 'VERIFY_TOKEN_EXPIRED', error: 'Срок действия ссылки для подтверждения email истёк. Отправьте письмо ещё раз' });
    expect((await call(auth.base, 'GET', '/api/auth/profile', { token: u.accessToken })).body.user.emailVerified).toBe(false);
  });
});

describe('mail settings', () => {
  it('a production start without SMTP_URL is refused; development writes mails to the log', () => {
    const base = { DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db' };
    expect(() => parseConfig(AuthConfigSchema, { ...base, NODE_ENV: 'production' })).toThrow(/SMTP_URL is required under NODE_ENV=production/);
    expect(parseConfig(AuthConfigSchema, { ...base, NODE_ENV: 'production', SMTP_URL: 'smtp://mail:587' }).SMTP_URL).toBe('smtp://mail:587');
    expect(parseConfig(AuthConfigSchema, base).SMTP_URL).toBeUndefined();
    expect(() => parseConfig(AuthConfigSchema, { ...base, SMTP_URL: 'http://mail' })).toThrow(/SMTP_URL/);
  });
});
