import { describe, expect, it } from 'vitest';
import { computeEntitlements, mostGenerous, sameEntitlements } from '../src/domain/entitlements.ts';
import { decimalToMinor, minorToDecimal } from '../src/domain/money.ts';
import { calculatedStatus, extendedExpiry, timeStatus } from '../src/domain/status.ts';
import { stripeSignatureHeader, verifyStripeSignature } from '../src/domain/stripe-signature.ts';

const DAY = 86_400_000;
const t0 = new Date('2026-01-01T00:00:00Z');
const at = (days: number) => new Date(t0.getTime() + days * DAY);

describe('subscription status by time', () => {
  it('is active before expiry, grace for grace_days after, then expired', () => {
    expect(timeStatus(at(10), 3, at(9.9))).toBe('active');
    expect(timeStatus(at(10), 3, at(10))).toBe('grace');
    expect(timeStatus(at(10), 3, at(12.9))).toBe('grace');
    expect(timeStatus(at(10), 3, at(13))).toBe('expired');
    expect(timeStatus(at(10), 0, at(10))).toBe('expired');
  });
  it('never moves back from a later stage set by hand', () => {
    expect(calculatedStatus('expired', at(10), 3, at(0))).toBe('expired');
    expect(calculatedStatus('grace', at(10), 3, at(0))).toBe('grace');
    expect(calculatedStatus('active', at(10), 3, at(11))).toBe('grace');
  });
  it('extends from what is left, or from now when past', () => {
    expect(extendedExpiry(at(10), 5, at(0)).getTime()).toBe(at(15).getTime());
    expect(extendedExpiry(at(10), 5, at(12)).getTime()).toBe(at(17).getTime());
  });
});

describe('entitlements', () => {
  const free = { name: 'Free', limits: { max_board_count: 3, max_canvas_extent_w: 8000, max_canvas_extent_h: 8000, export_pdf_enabled: false } };
  const pro = { name: 'Pro', limits: { max_board_count: -1, max_canvas_extent_w: 50000, max_canvas_extent_h: 40000, export_pdf_enabled: true } };
  const premium = mostGenerous([free.limits, pro.limits]);
  it('the most generous limits: unlimited wins, largest canvas, PDF if any', () => {
    expect(premium).toEqual(pro.limits);
    expect(mostGenerous([{ ...free.limits, max_board_count: 10, max_canvas_extent_w: 60000 }, pro.limits]).max_canvas_extent_w).toBe(60000);
  });
  it('Free without a subscription, the plan with one, premium while billing is off', () => {
    const base = { userId: 'u', limitsEnabled: true, free, premium };
    expect(computeEntitlements({ ...base, billingEnabled: true, plan: null })).toMatchObject({ planName: 'Free', maxBoards: 3, exportPdf: false });
    expect(computeEntitlements({ ...base, billingEnabled: true, plan: pro })).toMatchObject({ planName: 'Pro', maxBoards: -1, maxCanvasHeight: 40000 });
    expect(computeEntitlements({ ...base, billingEnabled: false, plan: null })).toMatchObject({ planName: 'Free', maxBoards: -1, exportPdf: true });
    expect(computeEntitlements({ ...base, billingEnabled: true, plan: null, free: null })).toMatchObject({ maxBoards: 3, maxCanvasWidth: 8000 });
  });
  it('compares field by field, whatever the key order', () => {
    const e = computeEntitlements({ userId: 'u', limitsEnabled: true, free, premium, billingEnabled: true, plan: null });
    const reordered = Object.fromEntries(Object.entries(e).reverse()) as typeof e;
    expect(sameEntitlements(reordered, e)).toBe(true);
    expect(sameEntitlements({ ...e, maxBoards: 4 }, e)).toBe(false);
    expect(sameEntitlements(null, e)).toBe(false);
  });
});

describe('money', () => {
  it('minor units to YooKassa decimals and back', () => {
    expect(minorToDecimal(49900)).toBe('499.00');
    expect(minorToDecimal(5)).toBe('0.05');
    expect(decimalToMinor('499.00')).toBe(49900);
    expect(decimalToMinor('0.5')).toBe(50);
    expect(decimalToMinor('1e3')).toBeNull();
  });
});

describe('Stripe signatures', () => {
  const body = Buffer.from('{"id":"evt_1"}');
  it('accepts its own scheme, any of several v1, within the tolerance', () => {
    const h = stripeSignatureHeader('whsec_a', 1000, body);
    expect(verifyStripeSignature(h, body, 'whsec_a', 1100)).toBe(true);
    expect(verifyStripeSignature(`t=1000,v1=00ff,${h.split(',')[1]}`, body, 'whsec_a', 1000)).toBe(true);
  });
  it('rejects another secret, another body, an old timestamp and junk', () => {
    const h = stripeSignatureHeader('whsec_a', 1000, body);
    expect(verifyStripeSignature(h, body, 'whsec_b', 1000)).toBe(false);
    expect(verifyStripeSignature(h, Buffer.from('{"id":"evt_2"}'), 'whsec_a', 1000)).toBe(false);
    expect(verifyStripeSignature(h, body, 'whsec_a', 1301)).toBe(false);
    expect(verifyStripeSignature('v1=abc', body, 'whsec_a', 1000)).toBe(false);
    expect(verifyStripeSignature(undefined, body, 'whsec_a', 1000)).toBe(false);
  });
});
