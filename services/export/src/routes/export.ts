/**
 * POST /api/export/{png,svg,pdf} {boardId, area} — the board's owner only (Bearer). PNG and SVG on
 * every plan, PDF when the owner's plan allows it (GET /api/export/formats tells the menu). The
 * render runs in a worker thread behind a gate;
 * a full gate answers 503 with Retry-After.
 */
import { Router } from 'express';
import { appError, parse, requireAuth, type TokenVerifier } from '@wb/service-kit';
import { checkArea, ExportRequest } from '../domain/area.ts';
import { pdfAllowed, type PdfEntitlement } from '../domain/entitlements.ts';
import { contentDisposition, exportFileName } from '../domain/filename.ts';
import { GateBusy, type Gate } from '../domain/gate.ts';
import { stopwatch } from '../domain/stopwatch.ts';
import { drawableImage, imageSourcesInArea } from '../domain/images.ts';
import type { InternalClients } from '../clients/internal.ts';
import type { ExportLimits } from '../config.ts';
import type { FontFiles } from '../render/fonts.ts';
import { bandCount, renderBanded } from '../render/bands.ts';
import type { RenderPool } from '../render/pool.ts';
import type { ExportFormat } from '../render/task.ts';

export interface ExportRouteDeps {
  verifier: TokenVerifier;
  clients: InternalClients;
  entitlement(userId: string): Promise<PdfEntitlement | null>;
  gate: Gate;
  pool: RenderPool;
  fonts: FontFiles;
  limits: ExportLimits;
}

const MIME: Record<ExportFormat, string> = {
  png: 'image/png',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
};
const RETRY_AFTER_S = 5;

export function exportRouter(deps: ExportRouteDeps): Router {
  const r = Router();

  /** The board's images in the area as data URLs, within the byte budget; the rest stay placeholders. */
  async function embeddedImages(
    boardId: string,
    objects: readonly unknown[],
    area: ReturnType<typeof checkArea>,
  ) {
    const images: Record<string, string> = {};
    let budget = deps.limits.maxImageBytes;
    for (const source of imageSourcesInArea(boardId, objects, area)) {
      if (source.kind === 'data') {
        if (source.src.length > budget || !drawableImage(source.src)) continue;
        budget -= source.src.length;
        images[source.src] = source.src;
        continue;
      }
      const image = await deps.clients.image(boardId, source.hash);
      if (!image || image.bytes.length > budget || !image.mime.startsWith('image/') || !drawableImage(image.bytes)) continue;
      budget -= image.bytes.length;
      images[source.src] = `data:${image.mime};base64,${image.bytes.toString('base64')}`;
    }
    return images;
  }

  // What the export menu offers the signed-in user on their own boards (PDF by their plan).
  r.get('/export/formats', requireAuth(deps.verifier), async (req, res) => {
    const pdf = pdfAllowed(await deps.entitlement(req.user!.sub));
    res.set('cache-control', 'no-store').json({ formats: pdf ? ['png', 'svg', 'pdf'] : ['png', 'svg'] });
  });

  for (const format of ['png', 'svg', 'pdf'] as const) {
    r.post(`/export/${format}`, requireAuth(deps.verifier), async (req, res) => {
      // Where this export's time went, answered as Server-Timing (the bench prints it).
      const { phases: steps, lap } = stopwatch();
      const body = parse(ExportRequest, req.body ?? {});
      const area = checkArea(body.area, deps.limits);
      const userId = req.user!.sub;
      const access = await deps.clients.access(body.boardId, userId);
      if (!access.board) throw appError('BOARD_NOT_FOUND');
      // As GET /api/boards/:id answers: no role at all is "no access", a role other than owner's is "owner only".
      if (access.role === 'none') throw appError('ACCESS_DENIED');
      if (access.role !== 'owner') throw appError('OWNER_REQUIRED');
      if (format === 'pdf' && !pdfAllowed(await deps.entitlement(access.board.owner_id))) {
        throw appError('EXPORT_PDF_NOT_ALLOWED');
      }
      const board = access.board;
      lap('access');
      let result;
      try {
        result = await deps.gate.run(async () => {
          lap('queue');
          // Read inside the gate: the export shows the board as it is when its turn comes.
          const state = await deps.clients.state(board.id);
          lap('state');
          const images = await embeddedImages(board.id, state.objects as unknown[], area);
          lap('images');
          const task = {
            board: state,
            background: board.background,
            area,
            images,
            fonts: deps.fonts,
            maxObjects: deps.limits.maxObjects,
          };
          const timeout = deps.limits.renderTimeoutMs;
          if (format !== 'png') return deps.pool.render({ ...task, format }, timeout);
          // A large PNG is drawn by all the threads at once, one band each (render/bands.ts).
          return renderBanded(
            (t) => deps.pool.render(t, timeout),
            (t) => deps.pool.renderBand(t, timeout),
            { ...task, format },
            bandCount(area, deps.pool.threads),
          );
        });
      } catch (err) {
        // A full gate, or a render stopped at its time limit: both mean "too busy now, try again".
        if (err instanceof GateBusy || (err as Error).name === 'AbortError') {
          res.set('retry-after', String(RETRY_AFTER_S));
          throw appError('EXPORT_BUSY');
        }
        throw err;
      }
      if (!result.ok) throw appError('EXPORT_TOO_MANY_OBJECTS');
      lap('render');
      const timing = Object.entries(steps).map(([step, ms]) => `${step};dur=${ms.toFixed(1)}`);
      // The render's steps in its thread (the slowest band's, for a PNG in bands).
      for (const [phase, ms] of Object.entries(result.phases)) timing.push(`thread-${phase};dur=${ms}`);
      res.set({
        'server-timing': timing.join(', '),
        'content-type': MIME[format],
        'content-disposition': contentDisposition(exportFileName(board.title, format)),
        'cache-control': 'no-store',
      });
      res.send(Buffer.from(result.bytes.buffer, result.bytes.byteOffset, result.bytes.byteLength));
    });
  }
  return r;
}
