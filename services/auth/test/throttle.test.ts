import { beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_POLICY, ADDRESS_POLICY, blockAfter } from '../src/domain/throttle.ts';
import { register, uniqueEmail, type TestAuth, useTwoReplicas } from './helpers.ts';

/**
 * Brute force: a growing delay per account and per address, shared by every replica through
 * PostgreSQL, never a permanent lockout; the owner's browser is not held back by others' failures.
 */
const replicas = useTwoReplicas();
let a: TestAuth;
let b: TestAuth;
beforeAll(() => void ({ a, b } = replicas));

let ipCounter = 0;
const freshIp = () => `203.0.113.${++ipCounter}`;

async function login(base: string, email: string, password: string, opts: { ip?: string; cookie?: string } = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (opts.ip) headers['x-forwarded-for'] = opts.ip;
  if (opts.cookie) headers.cookie = opts.cookie;
  const res = await fetch(`${base}/api/auth/login`, { method: 'POST', headers, body: JSON.stringify({ email, password }) });
  const body = await res.json();
  const setCookie = res.headers.get('set-cookie');
  const device = setCookie ? /wb_device=([^;]+)/.exec(setCookie)?.[1] : undefined;
  return { status: res.status, body, retryAfter: res.headers.get('retry-after'), device };
}

/** Lets a key's current block run out without waiting for it. */
const expire = (key: string) => a.pool.query(`UPDATE login_throttle SET blocked_until = now() WHERE key = $1`, [key]);
/** Keeps a key's current block in force for a minute, so a slow machine does not outlast a 2 s delay. */
const hold = (key: string) => a.pool.query(`UPDATE login_throttle SET blocked_until = now() + interval '1 minute' WHERE key = $1`, [key]);

describe('the delay policy', () => {
  it('is free for the first failures, then doubles up to its cap', () => {
    const delays = Array.from({ length: 20 }, (_, i) => blockAfter(i + 1, ACCOUNT_POLICY));
    expect(delays.slice(0, 5)).toEqual([0, 0, 0, 0, 0]);
    expect(delays.slice(5, 9)).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(Math.max(...delays)).toBe(15 * 60_000);
    expect(blockAfter(1_000, ADDRESS_POLICY)).toBe(60_000);
  });
});

describe('login throttling', () => {
  it('per account: after 5 failures each try waits longer, across replicas and addresses; the right password works once the delay is over', async () => {
    const u = await register(a.base);
    for (let i = 0; i < 5; i++) expect((await login(i % 2 ? a.base : b.base, u.email, 'Wrong-pass-1', { ip: freshIp() })).status).toBe(401);
    // The 6th failure blocks the account for 1 s; the next attempt, from any address and replica, waits.
    expect((await login(a.base, u.email, 'Wrong-pass-1', { ip: freshIp() })).status).toBe(401);
    const blocked = await login(b.base, u.email.toUpperCase(), u.password, { ip: freshIp() });
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ code: 'RATE_LIMITED', error: 'Слишком много запросов. Попробуйте позже' });
    expect(Number(blocked.retryAfter)).toBeGreaterThanOrEqual(1);
    // Growing: the next failure blocks for 2 s, then 4 s.
    const key = `account:${u.email.toLowerCase()}`;
    for (const seconds of [2, 4]) {
      await expire(key);
      expect((await login(a.base, u.email, 'Wrong-pass-1', { ip: freshIp() })).status).toBe(401);
      const r = await login(b.base, u.email, 'Wrong-pass-1', { ip: freshIp() });
      expect(r.status).toBe(429);
      expect(Number(r.retryAfter)).toBe(seconds);
    }
    // Not a lockout: once the delay is over the right password signs in, and the count starts over.
    await expire(key);
    expect((await login(b.base, u.email, u.password, { ip: freshIp() })).status).toBe(200);
    expect((await a.pool.query('SELECT 1 FROM login_throttle WHERE key = $1', [key])).rowCount).toBe(0);
  });

  it('throttles unknown addresses the same way, so the delay does not reveal which accounts exist', async () => {
    const email = uniqueEmail('ghost');
    for (let i = 0; i < 6; i++) expect((await login(a.base, email, 'Wrong-pass-1', { ip: freshIp() })).status).toBe(401);
    expect((await login(a.base, email, 'Wrong-pass-1', { ip: freshIp() })).status).toBe(429);
  });

  it('per address: spraying many accounts from one address is slowed, for at most a minute at a time', async () => {
    const ip = freshIp();
    const victims = await Promise.all(Array.from({ length: 3 }, () => register(a.base)));
    for (let i = 0; i < ADDRESS_POLICY.freeFailures + 1; i++) {
      expect((await login(i % 2 ? a.base : b.base, uniqueEmail('spray'), 'Wrong-pass-1', { ip })).status).toBe(401);
    }
    const r = await login(a.base, victims[0]!.email, victims[0]!.password, { ip });
    expect(r.status).toBe(429);
    // "Not for long": an address is never blocked for more than a minute at a time.
    expect(Number(r.retryAfter)).toBeLessThanOrEqual(60);
    await expire(`address:${ip}`);
    expect((await login(b.base, victims[1]!.email, victims[1]!.password, { ip })).status).toBe(200);
  });

  it("a browser that signed in before keeps working while its account and its address are throttled by someone else", async () => {
    const ip = freshIp();
    const u = await register(a.base);
    const first = await login(a.base, u.email, u.password, { ip });
    expect(first.status).toBe(200);
    expect(first.device).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // An attacker (other addresses) blocks the account; a neighbour behind the same address sprays.
    for (let i = 0; i < 8; i++) await login(b.base, u.email, 'Wrong-pass-1', { ip: freshIp() });
    for (let i = 0; i < ADDRESS_POLICY.freeFailures + 2; i++) await login(b.base, uniqueEmail('nat'), 'Wrong-pass-1', { ip });
    expect((await login(a.base, u.email, u.password, { ip })).status).toBe(429);
    // The owner's browser carries its device cookie: judged on its own budget, it signs in at once.
    const owner = await login(a.base, u.email, u.password, { ip, cookie: `wb_device=${first.device}` });
    expect(owner.status).toBe(200);
    // The cookie is bound to its account: it exempts nothing for another one.
    const other = await register(a.base);
    await hold(`address:${ip}`);
    expect((await login(b.base, other.email, other.password, { ip, cookie: `wb_device=${first.device}` })).status).toBe(429);
    // And guessing with a stolen cookie is throttled too (its own budget).
    for (let i = 0; i < 6; i++) await login(a.base, u.email, 'Wrong-pass-1', { ip: freshIp(), cookie: `wb_device=${first.device}` });
    expect((await login(a.base, u.email, u.password, { ip: freshIp(), cookie: `wb_device=${first.device}` })).status).toBe(429);
  });
});
