import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parse } from '../src/errors.ts';
import { findBadInput, isStorableString } from '../src/input-guard.ts';

describe('findBadInput', () => {
  it('accepts ordinary JSON, emoji (surrogate pairs) included', () => {
    expect(findBadInput({ name: 'Ёлка 🎄', n: [1, 2.5, -3], deep: { a: { b: null } }, ok: true })).toBeUndefined();
    expect(isStorableString('👍🏽')).toBe(true);
  });
  it('names the first NUL or lone surrogate, in values and in keys', () => {
    expect(findBadInput({ a: { b: 'x\u0000' } })).toEqual({ path: 'a.b', reason: 'string' });
    expect(findBadInput({ list: ['ok', '\ud83d'] })).toEqual({ path: 'list.1', reason: 'string' });
    expect(findBadInput({ ['k\udc00']: 1 })).toEqual({ path: 'k\udc00', reason: 'string' });
    expect(isStorableString('\udc00\ud800')).toBe(false);
  });
  it('refuses numbers JSON.parse overflowed to Infinity', () => {
    expect(findBadInput(JSON.parse('{"x":[1e999]}'))).toEqual({ path: 'x.0', reason: 'number' });
    expect(findBadInput(JSON.parse('{"x":-1e999}'))).toEqual({ path: 'x', reason: 'number' });
  });
  it('refuses nesting past the limit without recursing', () => {
    const deep = JSON.parse('['.repeat(100_000) + ']'.repeat(100_000));
    expect(findBadInput(deep)?.reason).toBe('depth');
    expect(findBadInput(JSON.parse('[[[1]]]'), 3)).toBeUndefined();
    expect(findBadInput(JSON.parse('[[[[1]]]]'), 3)?.reason).toBe('depth');
  });
});

describe('parse', () => {
  it('refuses NUL and lone surrogates whatever the schema, with a Russian text naming the field', () => {
    const schema = z.object({ plan: z.object({ name: z.string() }) });
    for (const bad of ['a\u0000b', 'a\ud800b', '\udc00']) {
      let thrown: unknown;
      try {
        parse(schema, { plan: { name: bad } });
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toMatchObject({ code: 'VALIDATION_ERROR', status: 400, message: 'Недопустимые символы в строке', fields: { 'plan.name': 'Недопустимые символы в строке' } });
    }
    expect(parse(schema, { plan: { name: 'Ёлка 🎄' } })).toEqual({ plan: { name: 'Ёлка 🎄' } });
  });
});
