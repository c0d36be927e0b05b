/**
 * Issue 32, item 11 in both runners: the embedded product (npm start) and the local cluster each
 * start Mailpit, point auth at it and at their own address for links; a reset mail sent through
 * the gateway arrives there and its link works through the gateway.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MailpitClient } from 'mailpit-api';
import { describe, expect, it } from 'vitest';
import { freePort } from '@wb/db';
import { startEmbedded } from '../embedded/embedded.ts';
import { startCluster } from '../local/cluster.ts';
import { call, eventually } from './clients.ts';

async function resetThroughGateway(base: string, mailpitUrl: string | undefined) {
  expect(mailpitUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  const mailpit = new MailpitClient(mailpitUrl!);
  const email = `mail-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;
  expect((await call(base, 'POST', '/api/auth/register', { body: { email, password: 'Secret-123', name: 'Почтальон' } })).status).toBe(201);
  expect((await call(base, 'POST', '/api/auth/password-reset/request', { body: { email } })).status).toBe(202);
  let text = '';
  await eventually(async () => {
    const found = await mailpit.searchMessages({ query: `to:"${email}" subject:"Сброс пароля"` });
    expect(found.messages.length).toBe(1);
    text = (await mailpit.getMessageSummary(found.messages[0]!.ID)).Text;
  }, 20_000);
  const m = /(https?:\/\/[^\s/]+)\/reset-password\?token=([A-Za-z0-9_-]{43})/.exec(text);
  expect(m).not.toBeNull();
  const [, origin, token] = m!;
  const confirm = await call(base, 'POST', '/api/auth/password-reset/confirm', { body: { token, password: 'Новый-пароль-1' } });
  expect(confirm.status).toBe(200);
  expect((await call(base, 'POST', '/api/auth/login', { body: { email, password: 'Новый-пароль-1' } })).status).toBe(200);
  return origin;
}

describe('development mail in the runners', () => {
  it('the embedded product starts Mailpit, links point at its own port, and stop() ends Mailpit', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'wb-mail-embedded-'));
    const port = await freePort();
    const product = await startEmbedded({ port, dataDir, logLevel: 'silent', env: { SMTP_URL: undefined, PUBLIC_URL: undefined } });
    try {
      expect(await resetThroughGateway(product.url, product.mailpitUrl)).toBe(`http://localhost:${port}`);
    } finally {
      await product.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
    // Stopped with the product: nothing answers on its port any more.
    await expect(fetch(`${product.mailpitUrl}/api/v1/info`)).rejects.toThrow();
  }, 120_000);

  it('the local cluster starts Mailpit too', async () => {
    const port = await freePort();
    const cluster = await startCluster({ port });
    try {
      expect(await resetThroughGateway(cluster.url, cluster.mailpitUrl)).toBe(`http://localhost:${port}`);
    } finally {
      await cluster.stop();
    }
    await expect(fetch(`${cluster.mailpitUrl}/api/v1/info`)).rejects.toThrow();
  }, 240_000);
});
