/**
 * Images on the canvas (issue 32 item 9) in Chromium on the real product: a pasted image is
 * uploaded to the board's store and shown through a short-lived signed URL, and the page makes no
 * request carrying `token=`; an image pasted (HTML with an <img>) or dropped (a link) from another page
 * is fetched by the page and uploaded first, and one that cannot be fetched gives a toast.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newBoardOf, openCanvas, type Obj } from './canvasHelpers.ts';
import { toastTexts, useProduct, withPage } from './harness.ts';

const product = useProduct({ attachUrl: process.env.WB_ATTACH_URL });

/** A solid PNG drawn by the page itself. */
async function pngBytes(page: Page, w: number, h: number, color: string): Promise<Buffer> {
  const b64 = await page.evaluate(
    ([cw, ch, col]) => {
      const c = document.createElement('canvas');
      c.width = cw as number;
      c.height = ch as number;
      const ctx = c.getContext('2d')!;
      ctx.fillStyle = col as string;
      ctx.fillRect(0, 0, c.width, c.height);
      return c.toDataURL('image/png').split(',')[1]!;
    },
    [w, h, color] as const,
  );
  return Buffer.from(b64, 'base64');
}

/** The stage's pixel at (x, y) relative to its top-left corner, all layers composed. */
function pixel(page: Page, x: number, y: number): Promise<number[]> {
  return page.evaluate(
    ([px, py]) => {
      const canvases = [...document.querySelectorAll<HTMLCanvasElement>('[data-testid="canvas-stage"] canvas')];
      const out = document.createElement('canvas');
      out.width = canvases[0]!.width;
      out.height = canvases[0]!.height;
      const ctx = out.getContext('2d')!;
      for (const c of canvases) ctx.drawImage(c, 0, 0);
      const ratio = out.width / canvases[0]!.clientWidth;
      return [...ctx.getImageData(Math.round(px! * ratio), Math.round(py! * ratio), 1, 1).data];
    },
    [x, y] as const,
  );
}

const objects = (page: Page) => page.evaluate(() => window.__wbCanvas!.store.allObjects() as unknown as Obj[]);

/** Another site serving one picture, with CORS allowed (as image hosts and CDNs do); counts its requests. */
let site: http.Server;
let siteUrl = '';
let sitePng: Buffer = Buffer.alloc(0);
let siteHits = 0;

beforeAll(async () => {
  site = http.createServer((req, res) => {
    siteHits++;
    if (req.url !== '/picture.png') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'image/png', 'access-control-allow-origin': '*' }).end(sitePng);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => site.close(resolve));
});

describe('images on the board page', () => {
  it('a pasted image is uploaded, shown through a signed URL, and no request carries token=', async () => {
    await withPage(product, async ({ page, errors }) => {
      const requests: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      const board = await newBoardOf(product.url, 'images', 'Картинки');
      await openCanvas(page, board);

      const png = (await pngBytes(page, 100, 50, '#00ff00')).toString('base64');
      await page.evaluate((b64) => {
        const bytes = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
        const dt = new DataTransfer();
        dt.items.add(new File([bytes], 'shot.png', { type: 'image/png' }));
        document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true }));
      }, png);
      await expect.poll(() => objects(page), { timeout: 15_000 }).toHaveLength(1);
      const [img] = await objects(page);
      expect(String(img!.src)).toMatch(new RegExp(`^/yjs/images/${board.id}/[0-9a-f]{64}$`));

      // Drawn: the stage's centre (where a paste lands) is the picture's green.
      const box = (await page.locator('[data-testid="canvas-stage"]').boundingBox())!;
      await expect.poll(() => pixel(page, box.width / 2, box.height / 2), { timeout: 15_000 }).toEqual([0, 255, 0, 255]);
      const reads = requests.filter((u) => u.includes(`/yjs/images/${board.id}/`) && !u.endsWith('/urls'));
      expect(reads.length).toBeGreaterThan(0);
      for (const u of reads) expect(u).toMatch(/\?exp=\d+&sig=[\w-]+$/);
      expect(requests.filter((u) => u.includes('token='))).toEqual([]);

      // A fresh load of the board shows it again, the same way.
      requests.length = 0;
      await page.reload();
      await page.waitForFunction(() => window.__wbCanvas?.stats.firstDrawAt != null, undefined, { timeout: 45_000 });
      await expect.poll(() => pixel(page, box.width / 2, box.height / 2), { timeout: 15_000 }).toEqual([0, 255, 0, 255]);
      expect(requests.some((u) => /\/yjs\/images\/[\w-]+\/[0-9a-f]{64}\?exp=/.test(u))).toBe(true);
      expect(requests.filter((u) => u.includes('token='))).toEqual([]);
      expect(errors).toEqual([]);
    });
  });

  it('an image pasted or dropped from another page is fetched and uploaded first; one that cannot be fetched gives a toast', async () => {
    await withPage(product, async ({ page }) => {
      sitePng = await pngBytes(page, 40, 30, '#0000ff');
      const board = await newBoardOf(product.url, 'images', 'Чужие картинки');
      await openCanvas(page, board);
      const pasteHtml = (html: string) =>
        page.evaluate((h) => {
          const dt = new DataTransfer();
          dt.setData('text/html', h);
          document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true }));
        }, html);

      const before = siteHits;
      await pasteHtml(`<p>Смотрите:</p><img src="${siteUrl}/picture.png" alt="">`);
      await expect.poll(() => objects(page), { timeout: 15_000 }).toHaveLength(1);
      const [img] = await objects(page);
      // The board points at its own copy, never at the other site.
      expect(String(img!.src)).toMatch(new RegExp(`^/yjs/images/${board.id}/[0-9a-f]{64}$`));
      expect(siteHits - before).toBe(1);

      // Dragged from another page onto the canvas: its address, fetched and uploaded the same way.
      await page.evaluate((url) => {
        const stage = document.querySelector('[data-testid="canvas-stage"]')!;
        const box = stage.getBoundingClientRect();
        const dt = new DataTransfer();
        dt.setData('text/uri-list', url);
        const at = { clientX: box.left + 100, clientY: box.top + 100, bubbles: true, cancelable: true, dataTransfer: dt };
        stage.dispatchEvent(new DragEvent('dragover', at));
        stage.dispatchEvent(new DragEvent('drop', at));
      }, `${siteUrl}/picture.png`);
      await expect.poll(() => objects(page), { timeout: 15_000 }).toHaveLength(2);
      const dropped = (await objects(page)).find((o) => o.id !== img!.id)!;
      expect(String(dropped.src)).toBe(img!.src);
      expect(siteHits - before).toBe(2);

      await pasteHtml(`<img src="${siteUrl}/gone.png">`);
      await expect.poll(() => toastTexts(page)).toContain('Не удалось загрузить изображение по ссылке. Сохраните его и вставьте файлом');
      expect(await objects(page)).toHaveLength(2);
    });
  });
});
