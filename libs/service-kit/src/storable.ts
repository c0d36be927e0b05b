/**
 * Values no service may store, found without any I/O or import (both the request guard and `parse`
 * use it; see input-guard.ts and errors.ts).
 */

/**
 * Deepest JSON nesting any of our bodies needs is 3 (settings, sharing); 32 leaves room for growth
 * while refusing `[[[[…` bombs before zod, pg or JSON.stringify recurse through them.
 */
export const MAX_JSON_DEPTH = 32;

export type InputProblem = { path: string; reason: 'string' | 'number' | 'depth' };

/**
 * The first value in `value` no service may store: a string (or object key) with a NUL or a lone
 * UTF-16 surrogate (PostgreSQL refuses the first, every UTF-8 encoder mangles the second), a number
 * that JSON.parse overflowed to ±Infinity (JSON.stringify would silently store it as null), or nesting
 * deeper than `maxDepth`. Iterative, so a hostile depth cannot overflow the stack here either.
 */
export function findBadInput(value: unknown, maxDepth = MAX_JSON_DEPTH): InputProblem | undefined {
  const stack: Array<{ v: unknown; path: string; depth: number }> = [{ v: value, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { v, path, depth } = stack.pop()!;
    if (typeof v === 'string') {
      if (!isStorableString(v)) return { path, reason: 'string' };
    } else if (typeof v === 'number') {
      if (!Number.isFinite(v)) return { path, reason: 'number' };
    } else if (v !== null && typeof v === 'object') {
      if (depth >= maxDepth) return { path, reason: 'depth' };
      for (const [k, child] of Object.entries(v)) {
        const childPath = path ? `${path}.${k}` : k;
        if (!isStorableString(k)) return { path: childPath, reason: 'string' };
        stack.push({ v: child, path: childPath, depth: depth + 1 });
      }
    }
  }
  return undefined;
}

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isStorableString(s: string): boolean {
  return !s.includes('\u0000') && !LONE_SURROGATE.test(s);
}

/** The field text of each problem (the toast shows it as the error). */
export const INPUT_PROBLEM_TEXTS: Record<InputProblem['reason'], string> = {
  string: 'Недопустимые символы в строке',
  number: 'Число вне допустимого диапазона',
  depth: 'Слишком глубокая вложенность',
};
