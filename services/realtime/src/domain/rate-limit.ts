/**
 * Token buckets, pure (the caller passes the clock). A bucket holds `burst` tokens and refills at
 * `perSecond`; taking from an empty bucket is refused.
 */
export interface BucketSpec {
  perSecond: number;
  burst: number;
}

export interface Bucket {
  tokens: number;
  at: number;
}

/** Takes one token; returns false when the bucket is empty. Mutates `b`. */
export function take(b: Bucket, spec: BucketSpec, nowMs: number): boolean {
  const refill = ((nowMs - b.at) / 1000) * spec.perSecond;
  b.tokens = Math.min(spec.burst, b.tokens + refill);
  b.at = nowMs;
  if (b.tokens < 1) return false;
  b.tokens -= 1;
  return true;
}

export const fullBucket = (spec: BucketSpec, nowMs: number): Bucket => ({ tokens: spec.burst, at: nowMs });

/**
 * Buckets by key (an anonymous identity, an address), bounded: the least recently created keys
 * go first when full. A key that was idle long enough to refill completely is dropped too.
 */
export class KeyedLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly spec: BucketSpec,
    private readonly maxKeys = 100_000,
  ) {}

  allow(key: string, nowMs: number): boolean {
    let b = this.buckets.get(key);
    if (!b) {
      if (this.buckets.size >= this.maxKeys) this.buckets.delete(this.buckets.keys().next().value!);
      this.buckets.set(key, (b = fullBucket(this.spec, nowMs)));
    }
    return take(b, this.spec, nowMs);
  }
}
