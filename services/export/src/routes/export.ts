/**
 * POST /api/export/{png,svg,pdf} {boardId, area} — the board's owner only (Bearer). PNG and SVG on
 * every plan, PDF when the owner's plan allows it (GET /api/export/formats tells the menu). The
 * render runs in a worker thread behind a fair gate (domain/fair-queue.ts): a user past their share
 * answers 429, a full service 503, both with Retry-After; an export that waited says where it stood
 * (`x-export-queue-position`). Pictures are decoded at the size they are drawn with (render/resize.ts).
 */
import { Router } from 'express';
import { appError, currentUserId, parse, requireAuth, type TokenVerifier } from '@wb/service-kit';
import { checkArea, ExportRequest } from '../domain/area.ts';
import { pdfAllowed, type PdfEntitlement } from '../domain/entitlements.ts';
import { contentDisposition, exportFileName } from '../domain/filename.ts';
import { GateBusy, type Gate } from '../domain/gate.ts';
import { stopwatch } from '../domain/stopwatch.ts';
import { decodeSizes, imageSourcesInArea } from '../domain/images.ts';
import { imageSize, imageSizeAllowed, type ImageSize } from '@wb/board-model';
import type { ExportMetrics } from '../metrics.ts';
import { resizeImage } from '../render/resize.ts';
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
  metrics: ExportMetrics;
}

const MIME: Record<ExportFormat, string> = {
  png: 'image/png',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
};
const RETRY_AFTER_S = 5;
/**
 * Pixels per board unit a picture is decoded at: the PNG is the area at scale 1; the PDF is a vector
 * page that is zoomed and printed, so its pictures get twice that. The SVG embeds the stored file.
 */
const IMAGE_SCALE: Record<ExportFormat, number> = { png: 1, pdf: 2, svg: 1 };

/** A data: URL's bytes and type. */
function dataUrlBytes(src: string): { mime: string; bytes: Buffer } {
  const comma = src.indexOf(',');
  return { mime: src.slice(5, src.indexOf(';')), bytes: Buffer.from(src.slice(comma + 1), 'base64') };
}

export function exportRouter(deps: ExportRouteDeps): Router {
  const r = Router();

  /**
   * The board's images in the area as data URLs, within the byte budget; the rest stay placeholders.
   * For PNG and PDF each is decoded at the size it is drawn with, all within the export's pixel budget
   * (decodeSizes); a picture's own size comes from its header, so nothing is decoded to learn it.
   */
  async function embeddedImages(
    boardId: string,
    objects: readonly unknown[],
    area: ReturnType<typeof checkArea>,
    format: ExportFormat,
  ) {
    const images: Record<string, string> = {};
    let budget = deps.limits.maxImageBytes;
    const found: Array<{ src: string; bytes: Buffer; natural: ImageSize; drawn: { width: number; height: number } }> = [];
    for (const source of imageSourcesInArea(boardId, objects, area)) {
      // The realtime store answers the display-size variant (at most 4,096 px a side) when it has one.
      const image = source.kind === 'data' ? dataUrlBytes(source.src) : await deps.clients.image(boardId, source.hash);
      if (!image || image.bytes.length > budget || !image.mime.startsWith('image/')) continue;
      const natural = imageSize(image.bytes);
      if (!imageSizeAllowed(natural)) continue;
      budget -= image.bytes.length;
      if (format === 'svg') images[source.src] = `data:${image.mime};base64,${image.bytes.toString('base64')}`;
      else found.push({ src: source.src, bytes: image.bytes, natural, drawn: source.drawn! });
    }
    const sizes = decodeSizes(found, IMAGE_SCALE[format], deps.limits.maxImagePixels);
    for (const [i, { src, bytes, natural }] of found.entries()) {
      const { width, height } = sizes[i]!;
      const png = await resizeImage(bytes, width, height);
      if (!png) continue;
      deps.metrics.decodedPixels.observe(width * height);
      deps.metrics.sourcePixels.inc(natural.width * natural.height);
      images[src] = `data:image/png;base64,${png.toString('base64')}`;
    }
    return images;
  }

  // What the export menu offers the signed-in user on their own boards (PDF by their plan).
  r.get('/export/formats', requireAuth(deps.verifier), async (req, res) => {
    const pdf = pdfAllowed(await deps.entitlement(currentUserId(req)));
    res.set('cache-control', 'no-store').json({ formats: pdf ? ['png', 'svg', 'pdf'] : ['png', 'svg'] });
  });

  for (const format of ['png', 'svg', 'pdf'] as const) {
    r.post(`/export/${format}`, requireAuth(deps.verifier), async (req, res) => {
      // Where this export's time went, answered as Server-Timing (the bench prints it).
      const { phases: steps, lap } = stopwatch();
      const body = parse(ExportRequest, req.body ?? {});
      const area = checkArea(body.area, deps.limits);
      const userId = currentUserId(req);
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
        result = await deps.gate.run(userId, async (position) => {
          if (position > 0) res.set('x-export-queue-position', String(position));
          lap('queue');
          // Read inside the gate: the export shows the board as it is when its turn comes.
          const state = await deps.clients.state(board.id);
          lap('state');
          const images = await embeddedImages(board.id, state.objects as unknown[], area, format);
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
        // This user's share is taken: their own earlier exports must end first.
        if (err instanceof GateBusy && err.reason === 'user-busy') {
          deps.metrics.refused.inc({ reason: err.reason });
          res.set('retry-after', String(RETRY_AFTER_S));
          throw appError('EXPORT_USER_BUSY');
        }
        // A render past the thread's memory ceiling (piscina's resourceLimits): this export is too big.
        if ((err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') throw appError('EXPORT_AREA_TOO_LARGE');
        // A full gate, or a render stopped at its time limit: both mean "too busy now, try again".
        if (err instanceof GateBusy || (err as Error).name === 'AbortError') {
          if (err instanceof GateBusy) deps.metrics.refused.inc({ reason: err.reason });
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
