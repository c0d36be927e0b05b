import { ESLint } from 'eslint';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Lints snippets with the repository's own eslint.config.js, as if they were test files, so this
// proves the rule is wired to the test paths, not only that the rule module works.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const eslint = new ESLint({ cwd: root });
const fixedWaits = async (code: string, file = 'services/boards/test/snippet.test.ts') => {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.filter((m) => m.ruleId === 'tests/no-fixed-wait').map((m) => m.line);
};

describe('the no-fixed-wait lint rule', () => {
  it('fails on each kind of fixed wait in a test file', async () => {
    const code = [
      "import { sleep } from '@wb/testkit';",
      'declare const page: { waitForTimeout(ms: number): Promise<void> };',
      'export async function t() {',
      '  await new Promise((r) => setTimeout(r, 300));',
      '  await sleep(200);',
      '  await page.waitForTimeout(100);',
      '  await globalThis.setTimeout(() => {}, 5);',
      '}',
    ].join('\n');
    expect(await fixedWaits(code)).toEqual([4, 5, 6, 7]);
  });

  it('applies to every test folder: services, libraries, deploy and the browser tests', async () => {
    const code = 'export const t = () => new Promise((r) => setTimeout(r, 300));\n';
    for (const file of ['libs/events/test/a.test.ts', 'deploy/test/a.test.ts', 'frontend/test/browser/a.test.ts', 'services/realtime/test/helpers.ts']) {
      expect(await fixedWaits(code, file), file).toEqual([1]);
    }
  });

  it('accepts a timer whose statement carries a `wait-ok:` reason, and ignores product code', async () => {
    const code = [
      'export async function t() {',
      '  // wait-ok: the fixture stays busy, that is the behaviour under test',
      '  await new Promise((r) => setTimeout(r, 300));',
      '  const guard = setTimeout(() => {}, 30_000); // wait-ok: a time-out guard, not a wait',
      '  clearTimeout(guard);',
      '  // wait-ok:',
      '  await new Promise((r) => setTimeout(r, 1));',
      '}',
    ].join('\n');
    // A marker without a reason does not count.
    expect(await fixedWaits(code)).toEqual([7]);
    expect(await fixedWaits('export const t = () => new Promise((r) => setTimeout(r, 300));\n', 'services/boards/src/a.ts')).toEqual([]);
  });
});
