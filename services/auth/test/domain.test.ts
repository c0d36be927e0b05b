import { describe, expect, it } from 'vitest';
import { parseDuration } from '../src/domain/durations.ts';
import { decideRefresh } from '../src/domain/refresh.ts';
import { mergeSettings } from '../src/domain/settings.ts';
import { DEFAULT_FAVORITE_EMOJIS, favoritesOrDefault, normalizeFavorites } from '../src/domain/emojis.ts';
import { hashPassword, needsRehash, verifyPassword } from '../src/domain/passwords.ts';

describe('durations', () => {
  it('parses seconds and units', () => {
    expect(parseDuration('900')).toBe(900);
    expect(parseDuration('15m')).toBe(900);
    expect(parseDuration('1h')).toBe(3600);
    expect(parseDuration('30d')).toBe(2_592_000);
    for (const bad of ['', '0', '-5', '1.5h', '10 minutes', 'm']) expect(parseDuration(bad)).toBeNull();
  });
});

describe('refresh decision', () => {
  const now = new Date('2026-01-01T12:00:00Z');
  const later = new Date('2026-01-31T12:00:00Z');
  const ago = (ms: number) => new Date(now.getTime() - ms);
  it('rotates a fresh token', () => expect(decideRefresh({ expiresAt: later, usedAt: null, sessionRevoked: false }, now, 10_000)).toBe('rotate'));
  it('refuses an expired one', () => expect(decideRefresh({ expiresAt: now, usedAt: null, sessionRevoked: false }, now, 10_000)).toBe('expired'));
  it('refuses a revoked family first', () => expect(decideRefresh({ expiresAt: later, usedAt: ago(60_000), sessionRevoked: true }, now, 10_000)).toBe('revoked'));
  it('a second use within the window is a race', () => expect(decideRefresh({ expiresAt: later, usedAt: ago(9_000), sessionRevoked: false }, now, 10_000)).toBe('race'));
  it('a second use after the window is reuse', () => expect(decideRefresh({ expiresAt: later, usedAt: ago(11_000), sessionRevoked: false }, now, 10_000)).toBe('reuse'));
  it('reuse of an expired rotated token is still reuse', () =>
    expect(decideRefresh({ expiresAt: ago(1), usedAt: ago(60_000), sessionRevoked: false }, now, 10_000)).toBe('reuse'));
});

describe('settings merge', () => {
  it('replaces top-level keys and deletes nulls', () => {
    expect(mergeSettings({ a: 1, b: { c: 2 } }, { b: { d: 3 }, a: null, e: 'x' })).toEqual({ b: { d: 3 }, e: 'x' });
  });
  it('caps the merged size', () => {
    expect(() => mergeSettings({ a: 'x'.repeat(10_000) }, { b: 'y'.repeat(10_000) })).toThrow('Настройки слишком большие');
  });
});

describe('favourite emojis', () => {
  it('falls back to the defaults when none are chosen', () => {
    expect(favoritesOrDefault(null)).toEqual([...DEFAULT_FAVORITE_EMOJIS]);
    expect(favoritesOrDefault([])).toEqual(['👍', '❤️', '😊', '🔥', '👏', '💯']);
    expect(favoritesOrDefault(['🎉'])).toEqual(['🎉']);
  });
  it('normalises', () => expect(normalizeFavorites([' 👍', '👍', '🎉', ' '])).toEqual(['👍', '🎉']));
});

describe('passwords', () => {
  it('argon2id round trip', async () => {
    const h = await hashPassword('пароль-123');
    expect(h).toMatch(/^\$argon2id\$v=19\$/);
    expect(h.split('$')[3].split(',').sort()).toEqual(['m=19456', 'p=1', 't=2']);
    expect(await verifyPassword(h, 'пароль-123')).toBe(true);
    expect(await verifyPassword(h, 'пароль-124')).toBe(false);
    expect(await verifyPassword('not a hash', 'x')).toBe(false);
    expect(needsRehash(h)).toBe(false);
  });
});
