import { createPool, type Pool } from '@wb/db';
import { createInProcessTransport } from '@wb/events';
import { createLogger, listen, parseConfig, type RunnableService } from '@wb/service-kit';
import { createDatabase, eventually, type MailpitHandle } from '@wb/testkit';
import { MailpitClient } from 'mailpit-api';
import { AuthConfigSchema, createAuthService } from '../src/app.ts';

/** A clock the test moves (the e-mail links' expiry and the mail throttles read it). */
export function testClock(start = Date.parse('2026-11-27T12:00:00Z')) {
  let t = start;
  return {
    now: () => new Date(t),
    advance(ms: number) {
      t += ms;
    },
  };
}
export type TestClock = ReturnType<typeof testClock>;

export const PUBLIC_URL = 'http://board.example.test';

export interface MailAuth {
  base: string;
  pool: Pool;
  clock: TestClock;
  service: RunnableService;
  close(): Promise<void>;
}

/** An auth service on a fresh database that sends its mail to `mailpit` over SMTP, on a movable clock. */
export async function startMailAuth(serverUrl: string, mailpit: MailpitHandle): Promise<MailAuth> {
  const dbUrl = await createDatabase(serverUrl);
  const pool = createPool({ url: dbUrl, schema: 'auth', max: 10 });
  const transport = createInProcessTransport();
  const clock = testClock();
  const config = parseConfig(AuthConfigSchema, {
    DATABASE_URL: dbUrl,
    LOG_LEVEL: 'silent',
    SMTP_URL: mailpit.smtpUrl,
    MAIL_FROM: 'Холст <no-reply@board.example.test>',
    PUBLIC_URL,
  });
  const service = await createAuthService({ pool, transport, logger: createLogger('auth-mail-test', 'silent'), config, clock });
  await service.start();
  const server = await listen(service.app, 0, '127.0.0.1');
  return {
    base: `http://127.0.0.1:${server.port}`,
    pool,
    clock,
    service,
    async close() {
      await server.close();
      await service.stop();
      await transport.close();
      await pool.end();
    },
  };
}

/** The mails Mailpit holds for `to` (newest first), as full messages. */
export async function mailsTo(mailpit: MailpitClient, to: string) {
  const found = await mailpit.searchMessages({ query: `to:"${to}"` });
  return Promise.all(found.messages.map((m) => mailpit.getMessageSummary(m.ID)));
}

/** Waits for the `n`-th mail to `to` whose subject contains `subject`, and answers it (newest first). */
export async function waitForMail(mailpit: MailpitClient, to: string, subject: string, n = 1) {
  let mails: Awaited<ReturnType<typeof mailsTo>> = [];
  await eventually(async () => {
    mails = (await mailsTo(mailpit, to)).filter((m) => m.Subject.includes(subject));
    return mails.length >= n;
  }, { timeoutMs: 15_000, what: `${n} mail(s) "${subject}" to ${to}` });
  return mails[0]!;
}

/** The token of the link `path` (e.g. '/reset-password') in a mail's text. */
export function linkToken(text: string, path: string): string {
  const m = new RegExp(`${PUBLIC_URL.replace(/[.]/g, '\\.')}${path}\\?token=([A-Za-z0-9_-]{43})`).exec(text);
  if (!m) throw new Error(`no ${path} link in: ${text}`);
  return m[1]!;
}
