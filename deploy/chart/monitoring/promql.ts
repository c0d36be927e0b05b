// The metric names a PromQL expression reads, for the check that every dashboard and alert names a
// metric some service exports. Enough PromQL for what we generate: selectors, functions, aggregations
// with by/without, binary operators with on/ignoring/group_*, ranges, numbers and strings.
const KEYWORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'and', 'or', 'unless', 'bool', 'offset', 'inf', 'nan']);

export function metricNames(expr: string): string[] {
  const names = new Set<string>();
  const text = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""') // strings (label values, regexes)
    .replace(/\{[^}]*\}/g, ' ') // label matchers
    .replace(/\[[^\]]*\]/g, ' ') // ranges and subqueries
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' '); // label lists
  for (const m of text.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const word = m[0];
    const after = text.slice(m.index + word.length).trimStart();
    if (after.startsWith('(')) continue; // a function or an aggregation
    if (KEYWORDS.has(word.toLowerCase())) continue;
    if (/^[0-9]/.test(word)) continue;
    // A number's exponent or unit (1e3) is not a name: the character before would be a digit.
    if (m.index > 0 && /[0-9.]/.test(text[m.index - 1]!)) continue;
    names.add(word);
  }
  return [...names];
}
