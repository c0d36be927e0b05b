// ESLint rule for test files: no fixed waits. A timer used to "give the async work time" makes a
// test slow on a quiet machine and flaky on a loaded one; tests poll a condition instead
// (`eventually` from @wb/testkit, Playwright's auto-waiting, expect.poll). A timer that IS the
// behaviour under test (a fixture that stays busy, a time-out guard) is accepted when a comment
// `wait-ok: <reason>` sits on its line or just above its statement.

const WAIT_CALLS = new Set(['setTimeout', 'sleep', 'delay']);
const WAIT_METHODS = new Set(['waitForTimeout', 'setTimeout']);
const MARKER = /wait-ok:\s*\S/;

const calleeName = (callee) => {
  if (callee.type === 'Identifier' && WAIT_CALLS.has(callee.name)) return callee.name;
  if (callee.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier' && WAIT_METHODS.has(callee.property.name)) {
    return callee.property.name;
  }
  return null;
};

const statementOf = (node) => {
  let n = node;
  while (n.parent && !/(Statement|Declaration)$/.test(n.type)) n = n.parent;
  return n;
};

/** @type {import('eslint').Rule.RuleModule} */
export const noFixedWait = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid fixed waits (setTimeout, sleep, waitForTimeout) in tests; poll a condition instead.' },
    messages: {
      fixedWait:
        '`{{name}}` as a wait in a test: poll the condition with `eventually` from @wb/testkit (or Playwright auto-waiting); for a negative check wait for a later positive sentinel. A timer that is the behaviour under test needs a `// wait-ok: <reason>` comment.',
    },
    schema: [],
  },
  create(context) {
    const source = context.sourceCode;
    const markedLines = [];
    for (const c of source.getAllComments()) if (MARKER.test(c.value)) markedLines.push([c.loc.start.line, c.loc.end.line]);
    const accepted = (node) => {
      const from = statementOf(node).loc.start.line - 1;
      const to = node.loc.end.line;
      return markedLines.some(([start, end]) => end >= from && start <= to);
    };
    return {
      CallExpression(node) {
        const name = calleeName(node.callee);
        if (name && !accepted(node)) context.report({ node, messageId: 'fixedWait', data: { name } });
      },
    };
  },
};

export default { rules: { 'no-fixed-wait': noFixedWait } };
