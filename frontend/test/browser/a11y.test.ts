/**
 * Issue 8, item 19: zero serious or critical axe-core violations (WCAG 2 A/AA rules) on every built
 * page, for a visitor and for a signed-in user with folders, tags and boards.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { animationsEnded } from './axe.ts';
import { appReady, newAccount, registerViaApi, signInWithTokens, useProduct, withPage } from './harness.ts';

const product = useProduct({ attachUrl: process.env.WB_TEST_BASE_URL });
// Evaluated through the DevTools protocol: the pages' CSP (script-src 'self') refuses an injected <script>.
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** Serious and critical violations on the page as it is now, one line each (rule, help, first nodes). */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: unknown): Promise<{ violations: Violation[] }> } }).axe;
    const r = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return r.violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}

async function settled(page: Page, path: string, ready: string) {
  await page.goto(path);
  await appReady(page);
  await page.locator(ready).first().waitFor();
  await page.waitForLoadState('networkidle');
  // Let entry animations finish, so colours are measured as they end up.
  await animationsEnded(page);
}

describe('accessibility of the built pages (axe-core)', () => {
  it.each([
    ['/', '[data-testid="feature-block"]'],
    ['/pricing', 'h1'],
    ['/login', '[data-testid="login-submit"]'],
    ['/register', '[data-testid="register-submit"]'],
  ])('%s for a visitor', async (path, ready) => {
    await withPage(product, async ({ page }) => {
      await settled(page, path, ready);
      expect(await seriousViolations(page)).toEqual([]);
    });
  });

  it('/login and /register with every field error shown', async () => {
    await withPage(product, async ({ page }) => {
      await settled(page, '/register', '[data-testid="register-submit"]');
      await page.click('[data-testid="register-submit"]');
      await page.locator('#name-error').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await settled(page, '/login', '[data-testid="login-submit"]');
      await page.click('[data-testid="login-submit"]');
      await page.locator('#email-error').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
    });
  });

  it('/dashboard, /settings and the dashboard dialogs for a signed-in user', async () => {
    const acc = newAccount('axe');
    await registerViaApi(product.url, acc);
    await withPage(product, async ({ page }) => {
      await signInWithTokens(page, product.url, acc);
      await settled(page, '/dashboard', '[data-testid="dashboard-title"]');
      // Some content: a folder, a board, a tag on it.
      await page.click('[data-testid="create-folder"]');
      await page.fill('[data-testid="folder-name-input"]', 'Проекты');
      await page.click('[data-testid="folder-submit"]');
      await page.locator('[data-testid="folder-row"]').waitFor();
      await page.click('[data-testid="create-board"]');
      await page.fill('[data-testid="board-title-input"]', 'Доска');
      await page.click('[data-testid="create-board-submit"]');
      await page.locator('[data-testid="board-card"]').waitFor();
      await page.locator('[data-testid="board-card"]').hover();
      await page.click('[data-testid="board-menu"]');
      await page.click('[data-testid="menu-tags"]');
      await page.locator('[data-testid="tags-modal"]').waitFor();
      await animationsEnded(page);
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await page.locator('[data-testid="tags-modal"]').waitFor({ state: 'detached' });

      await page.locator('[data-testid="board-card"]').hover();
      await page.click('[data-testid="board-menu"]');
      await page.click('[data-testid="menu-access"]');
      await page.locator('[data-testid="access-modal"]').waitFor();
      await animationsEnded(page);
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await page.locator('[data-testid="access-modal"]').waitFor({ state: 'detached' });
      // Toasts fade out before the page itself is checked.
      await page.locator('.Toastify__toast').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => {});
      expect(await seriousViolations(page)).toEqual([]);

      await settled(page, '/settings', '[data-testid="profile-submit"]');
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
});
