import { describe, expect, it } from 'vitest';
import { safeRedirect } from '../../src/app/navigation.ts';

describe('safeRedirect with crafted values (issue 8, item 11)', () => {
  it.each([
    ['/\t/evil.example', 'a tab between the slashes'],
    ['/\n/evil.example', 'a newline between the slashes'],
    ['/\r\n/evil.example', 'CR LF between the slashes'],
    ['\t//evil.example', 'a leading tab'],
    ['/\\evil.example', 'a backslash'],
    ['/\\/evil.example', 'backslash then slash'],
    ['//evil.example', 'protocol-relative'],
    ['javascript:alert(1)', 'javascript: scheme'],
    ['/%0a/evil', 'an encoded newline is fine as a path, but stays a path'],
    ['https://evil.example/dashboard', 'absolute URL'],
    [' /dashboard', 'leading space'],
    ['/register', 'the register page'],
  ])('%j (%s) never leaves the site', (target) => {
    const out = safeRedirect(target);
    expect(out.startsWith('/')).toBe(true);
    expect(out.startsWith('//')).toBe(false);
    expect(new URL(out, 'https://wb.example').origin).toBe('https://wb.example');
  });

  it('sends the dangerous ones to /dashboard', () => {
    for (const t of ['/\t/evil.example', '/\n/evil', '//evil', 'javascript:alert(1)', '/\\evil', ' /x'])
      expect(safeRedirect(t)).toBe('/dashboard');
  });

  it('keeps ordinary in-site targets with their query and hash', () => {
    expect(safeRedirect('/board/abc?token=t#x')).toBe('/board/abc?token=t#x');
    expect(safeRedirect('/settings')).toBe('/settings');
  });
});
