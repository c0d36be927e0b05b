import { Router } from 'express';
import { ReceiptInput } from '@wb/contracts';
import { parse } from '@wb/service-kit';
import { receiptScene } from '../receipts/scene.ts';
import { fontFiles } from '../render/fonts.ts';
import { sceneToPdf } from '../render/pdf.ts';

/**
 * POST /internal/receipts (billing only, behind internalAuth): one paid payment's receipt as a PDF,
 * drawn by the same code as a board's PDF export. A receipt is one small page, so it is drawn here
 * rather than queued behind board exports in the render pool.
 */
export function receiptsRouter(): Router {
  const r = Router();
  r.post('/receipts', async (req, res) => {
    const input = parse(ReceiptInput, req.body);
    const pdf = await sceneToPdf(receiptScene(input), {
      fonts: fontFiles(),
      imageHref: () => undefined,
      shadowImage: () => undefined,
    });
    res.type('application/pdf').send(Buffer.from(pdf));
  });
  return r;
}
