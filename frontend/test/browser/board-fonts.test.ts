/**
 * The board is drawn with the fonts the export renders with (DejaVu Sans, Noto Emoji), loaded by the
 * board page itself rather than hoped for on the visitor's machine; other pages do not download them.
 */
import { describe, expect, it } from 'vitest';
import { newAccount, registerViaApi, signInWithTokens, useProduct, withPage } from './harness.ts';

const product = useProduct({ attachUrl: process.env.WB_ATTACH_URL });

describe('board fonts', () => {
  it('loads DejaVu Sans and offers Noto Emoji to the reaction buttons on /board, and neither on /dashboard', async () => {
    const owner = newAccount('fonts');
    await registerViaApi(product.url, owner);
    await withPage(product, async ({ page, errors }) => {
      const fontRequests: string[] = [];
      page.on('request', (r) => {
        if (r.resourceType() === 'font') fontRequests.push(r.url());
      });
      await signInWithTokens(page, product.url, owner);
      await page.goto('/dashboard');
      await page.getByRole('button', { name: 'Новая доска' }).first().waitFor();
      expect(fontRequests.filter((u) => /dejavu|noto-emoji/.test(u))).toEqual([]);

      const token = await page.evaluate(() => localStorage.getItem('accessToken') ?? JSON.parse(localStorage.getItem('wb.tokens') ?? '{}').accessToken);
      const res = await fetch(`${product.url}/api/boards`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ title: 'Шрифты' }),
      });
      const { board } = (await res.json()) as { board: { id: string } };
      await page.goto(`/board/${board.id}`);
      // A sticky, selected after saving: the reactions bar belongs to it.
      const canvas = page.locator('canvas').last();
      const box = (await canvas.boundingBox())!;
      await page.keyboard.press('5');
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      await page.keyboard.type('Шрифт 👍');
      await page.keyboard.press('Control+Enter');
      await page.getByTestId('reaction-bar').waitFor();
      const loaded = await page.evaluate(() =>
        [...document.fonts].filter((f) => f.status === 'loaded').map((f) => `${f.family.replaceAll('"', '')} ${f.weight}`),
      );
      expect(loaded).toContain('DejaVu Sans 400');
      expect(fontRequests.some((u) => /dejavu-sans/.test(u))).toBe(true);
      const emojiFamily = await page.getByTestId('quick-reaction').first().evaluate((el) => getComputedStyle(el).fontFamily);
      expect(emojiFamily).toContain('Noto Emoji');
      // A reaction chip draws its emoji with an emoji font first in the stack (issue 35 item 9), its count in the text font.
      await page.getByTestId('quick-reaction').first().click();
      const chipEmoji = page.getByTestId('reaction-chip-emoji').first();
      await chipEmoji.waitFor();
      const chipFamily = await chipEmoji.evaluate((el) => getComputedStyle(el).fontFamily);
      expect(chipFamily.split(',')[0]!.replaceAll('"', '').trim()).toMatch(/Emoji/);
      const chipTextFamily = await page.getByTestId('reaction-chip').first().evaluate((el) => getComputedStyle(el).fontFamily);
      expect(chipTextFamily.split(',')[0]!).not.toMatch(/Emoji/);
      expect(errors).toEqual([]);
    });
  });
});
