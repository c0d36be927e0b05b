/**
 * The board page on a phone (issue 35 item 8) in Chromium at 375×667: one toolbar row with an
 * "Ещё" menu whose tools work, the board at least 80 % of the screen's height, every dialog inside
 * the screen, and axe finding nothing serious.
 */
import { describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.ts';
import { useProduct } from './harness.ts';
import { PHONE, inside, newBoard, withCanvas } from './navigationHelpers.ts';

const product = useProduct({ attachUrl: process.env.WB_ATTACH_URL });

describe('phone (375×667)', () => {
  it('one toolbar row with a working "Ещё" menu; the board keeps ≥ 80 % of the height; axe clean', async () => {
    const board = await newBoard(product, 'Телефон');
    await withCanvas(product, board, PHONE, async ({ page }) => {
      const bar = (await page.locator('[data-testid="canvas-toolbar"]').boundingBox())!;
      const tops = await page.evaluate(() =>
        [...document.querySelectorAll('[data-testid="canvas-toolbar"] button')]
          .filter((b) => (b as HTMLElement).offsetParent !== null)
          .map((b) => Math.round(b.getBoundingClientRect().top)),
      );
      expect(new Set(tops).size, `button rows at ${tops.join(',')}`).toBe(1);
      expect(bar.x).toBeGreaterThanOrEqual(0);
      expect(bar.x + bar.width).toBeLessThanOrEqual(PHONE.width);
      expect(bar.height).toBeLessThan(56);

      const stage = (await page.locator('[data-testid="canvas-stage"]').boundingBox())!;
      const boardHeight = stage.y + stage.height - Math.max(stage.y, bar.y + bar.height);
      expect(boardHeight / PHONE.height, `board ${boardHeight} of ${PHONE.height}`).toBeGreaterThanOrEqual(
        0.8,
      );
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
      ).toBeLessThanOrEqual(0);

      // The menu button has a name; its tools work.
      const more = page.getByRole('button', { name: 'Ещё инструменты' });
      await more.click();
      const menu = page.locator('[data-testid="toolbar-more-menu"]');
      await menu.waitFor();
      expect(inside({ x: 0, y: 0, ...PHONE }, (await menu.boundingBox())!)).toBe(true);
      await page.click('[data-testid="more-tool-rectangle"]');
      expect(await page.evaluate(() => window.__wbCanvas!.tool)).toBe('rectangle');
      // The menu's button shows that the tool in use is one of its own.
      expect(await more.getAttribute('data-holds-tool')).toBe('true');
      await page.mouse.move(stage.x + 100, stage.y + 250);
      await page.mouse.down();
      await page.mouse.move(stage.x + 220, stage.y + 330, { steps: 4 });
      await page.mouse.up();
      await expect
        .poll(() => page.evaluate(() => window.__wbCanvas!.store.allObjects().map((o) => o.type)))
        .toEqual(['rectangle']);
      await more.click();
      await page.click('[data-testid="more-tool-ellipse"]');
      expect(await page.evaluate(() => window.__wbCanvas!.tool)).toBe('ellipse');
      // The current tool's colours come along in the menu.
      await more.click();
      await page.click('[data-testid="color-#1E88E5"]');
      expect((await page.evaluate(() => window.__wbCanvas!.style.color)).toLowerCase()).toBe('#1e88e5');
      await page.keyboard.press('Escape');

      await page.screenshot({ path: '/tmp/shot-canvas-navigation-375.png' });
      expect(await seriousViolations(page)).toEqual([]);
    });
  });

  it('every dialog of the board page fits the screen at 375×667 and scrolls inside itself', async () => {
    const board = await newBoard(product, 'Диалоги');
    await withCanvas(product, board, PHONE, async ({ page }) => {
      const check = async (name: string, selector: string) => {
        const el = page.locator(selector).last();
        await el.waitFor();
        await expect
          .poll(async () => inside({ x: 0, y: 0, ...PHONE }, (await el.boundingBox())!), { message: name })
          .toBe(true);
        const overflow = await el.evaluate((n) => n.scrollWidth - n.clientWidth);
        expect(overflow, `${name}: horizontal overflow`).toBeLessThanOrEqual(0);
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
          name,
        ).toBeLessThanOrEqual(0);
      };
      const more = page.getByRole('button', { name: 'Ещё инструменты' });
      await more.click();
      await page.click('[data-testid="more-templates"]');
      for (const tab of ['kanban', 'calendar', 'json-import']) {
        await page.click(`[data-testid="template-tab-${tab}"]`);
        await check(`templates/${tab}`, '[role="dialog"]');
      }
      // The kanban form at its widest: six columns.
      await page.click('[data-testid="template-tab-kanban"]');
      await page.click('[data-testid="kanban-add"]');
      await page.click('[data-testid="kanban-add"]');
      await check('templates/kanban×6', '[role="dialog"]');
      await page.keyboard.press('Escape');
      await page.locator('[role="dialog"]').waitFor({ state: 'detached' });

      await page.click('[data-testid="open-access"]');
      await check('access', '[role="dialog"]');
      await page.keyboard.press('Escape');
      await page.locator('[role="dialog"]').waitFor({ state: 'detached' });

      await page.click('[data-testid="open-snapshots"]');
      await check('snapshots', '[role="dialog"]');
      await page.keyboard.press('Escape');
      await page.locator('[role="dialog"]').waitFor({ state: 'detached' });

      await page.click('[data-testid="export-trigger"]');
      await check('export', '[role="menu"]');
      await page.keyboard.press('Escape');

      await page.click('[data-testid="background-trigger"]');
      await check('background', '[role="menu"]');
      await page.keyboard.press('Escape');
      await page.screenshot({ path: '/tmp/shot-canvas-navigation-dialogs-375.png' });
    });
  });
});
