import type { Resolver } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { lazyResolver } from '../../src/lib/lazyResolver.ts';

type Values = { email: string };
const answer = { values: { email: 'a@b.c' }, errors: {} };
const real: Resolver<Values> = async () => answer;

describe('lazyResolver', () => {
  it('fetches the schema module once, on first use, and answers as the real resolver', async () => {
    let loads = 0;
    const resolver = lazyResolver<Values, unknown, Values>(async () => {
      loads++;
      return real;
    });
    expect(loads).toBe(0);
    const opts = { fields: {}, shouldUseNativeValidation: false } as Parameters<Resolver<Values>>[2];
    expect(await resolver({ email: 'a@b.c' }, undefined, opts)).toEqual(answer);
    resolver.preload();
    expect(await resolver({ email: 'a@b.c' }, undefined, opts)).toEqual(answer);
    expect(loads).toBe(1);
  });

  it('a failed fetch is tried again next time (preload swallows it, a submit sees it)', async () => {
    let loads = 0;
    const resolver = lazyResolver<Values, unknown, Values>(async () => {
      loads++;
      if (loads === 1) throw new Error('chunk lost');
      return real;
    });
    const opts = { fields: {}, shouldUseNativeValidation: false } as Parameters<Resolver<Values>>[2];
    await expect(resolver({ email: '' }, undefined, opts)).rejects.toThrow('chunk lost');
    expect(await resolver({ email: 'a@b.c' }, undefined, opts)).toEqual(answer);
    expect(loads).toBe(2);
  });
});
