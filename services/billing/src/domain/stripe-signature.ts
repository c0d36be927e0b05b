import { createHmac, timingSafeEqual } from 'node:crypto';

/** Stripe's default tolerance between the signed timestamp and now. */
export const STRIPE_TOLERANCE_S = 300;

export function stripeSignature(secret: string, timestamp: number, rawBody: Buffer | string): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/** The Stripe-Signature header for a body, as Stripe sends it (tests, the local stand-in). */
export function stripeSignatureHeader(secret: string, timestamp: number, rawBody: Buffer | string): string {
  return `t=${timestamp},v1=${stripeSignature(secret, timestamp, rawBody)}`;
}

/**
 * Stripe's webhook scheme: `t=<unix>,v1=<hex HMAC-SHA256 of "t.body">[,v1=...]`. Any v1 may match
 * (secret rotation); the timestamp must be within the tolerance so a captured request cannot be replayed later.
 */
export function verifyStripeSignature(header: string | undefined, rawBody: Buffer, secret: string, nowS: number): boolean {
  if (!header) return false;
  let t: number | undefined;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const [k, v] = part.split('=', 2);
    if (k === 't' && v && /^\d+$/.test(v)) t = Number(v);
    else if (k === 'v1' && v) v1.push(v);
  }
  if (t === undefined || v1.length === 0 || Math.abs(nowS - t) > STRIPE_TOLERANCE_S) return false;
  const expected = Buffer.from(stripeSignature(secret, t, rawBody), 'hex');
  return v1.some((sig) => {
    const got = Buffer.from(sig, 'hex');
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
}
