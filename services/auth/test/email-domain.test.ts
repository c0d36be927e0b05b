import { describe, expect, it } from 'vitest';
import { hashLinkToken, LINK_TTL_MS, linkState, mailBlockedFor, newLinkToken, RESET_PER_EMAIL, resetEmailKey } from '../src/domain/email-links.ts';
import { linkUrl, passwordResetMail, verificationMail } from '../src/domain/mail-texts.ts';

const now = new Date('2026-11-27T12:00:00Z');
const at = (ms: number) => new Date(now.getTime() + ms);

describe('e-mail links (domain)', () => {
  it('a token is 43 base64url characters and only its sha256 is kept', () => {
    const t = newLinkToken();
    expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newLinkToken()).not.toBe(t);
    expect(hashLinkToken(t)).toHaveLength(32);
    expect(hashLinkToken(t).equals(hashLinkToken(t))).toBe(true);
  });

  it('valid until its hour is over; used beats expired; unknown is unknown', () => {
    const link = { expiresAt: at(LINK_TTL_MS), usedAt: null };
    expect(LINK_TTL_MS).toBe(3_600_000);
    expect(linkState(link, at(LINK_TTL_MS - 1))).toBe('valid');
    expect(linkState(link, at(LINK_TTL_MS))).toBe('expired');
    expect(linkState({ ...link, usedAt: now }, at(2 * LINK_TTL_MS))).toBe('used');
    expect(linkState(null, now)).toBe('unknown');
  });

  it('a mail key waits until its window ends once over the limit', () => {
    expect(mailBlockedFor(3, now, at(10_000), RESET_PER_EMAIL)).toBe(0);
    expect(mailBlockedFor(4, now, at(10_000), RESET_PER_EMAIL)).toBe(RESET_PER_EMAIL.windowMs - 10_000);
    expect(mailBlockedFor(4, now, at(RESET_PER_EMAIL.windowMs + 5), RESET_PER_EMAIL)).toBe(1);
    expect(resetEmailKey('  Anna@Example.COM ')).toBe('reset-email:anna@example.com');
  });
});

describe('mail texts', () => {
  it('links go to the public address, token encoded', () => {
    expect(linkUrl('https://board.example/', '/reset-password', 'abc_-')).toBe('https://board.example/reset-password?token=abc_-');
  });

  it('Russian subject and body with the link; a name cannot inject HTML', () => {
    const link = 'https://board.example/reset-password?token=T';
    const mail = passwordResetMail('<img src=x onerror=alert(1)>', link);
    expect(mail.subject).toBe('Сброс пароля — Холст');
    expect(mail.text).toContain(link);
    expect(mail.text).toContain('Ссылка действует 1 час и только один раз.');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(mail.html).toContain(`href="${link}"`);
    const verify = verificationMail('Анна', 'https://board.example/verify-email?token=T');
    expect(verify.subject).toBe('Подтверждение email — Холст');
    expect(verify.text).toContain('Здравствуйте, Анна!');
  });
});
