/** The export request's rules (board-page.md §4, §7, §9), free of I/O. */
import { z } from 'zod';
import { EXPORT_AREA_MIN, type Area } from '@wb/board-model';
import { appError } from '@wb/service-kit';

/**
 * The canvas is infinite, but not beyond what a double adds up exactly: an x of 1e308 plus a width
 * made the SVG's viewBox "Infinity". Ten million units is far past any board (bounded canvases are
 * at most a few tens of thousands wide).
 */
export const EXPORT_COORDINATE_MAX = 10_000_000;
const finite = z.number().refine(Number.isFinite).refine((n) => Math.abs(n) <= EXPORT_COORDINATE_MAX, 'Число вне допустимого диапазона');

export const ExportRequest = z.object({
  boardId: z.string().min(1).max(64),
  area: z.object({ x: finite, y: finite, width: finite, height: finite }),
});
export type ExportRequest = z.infer<typeof ExportRequest>;

/**
 * A selection dragged up or left arrives with negative sides; it is the same rectangle. Refuses an
 * area at or under 10×10 (the canvas never sends one) and one over the configured size.
 */
export function checkArea(area: Area, limits: { maxPixels: number; maxSide: number }): Area {
  const normal = {
    x: Math.min(area.x, area.x + area.width),
    y: Math.min(area.y, area.y + area.height),
    width: Math.abs(area.width),
    height: Math.abs(area.height),
  };
  if (normal.width <= EXPORT_AREA_MIN || normal.height <= EXPORT_AREA_MIN)
    throw appError('EXPORT_AREA_TOO_SMALL');
  if (
    normal.width > limits.maxSide ||
    normal.height > limits.maxSide ||
    normal.width * normal.height > limits.maxPixels
  )
    throw appError('EXPORT_AREA_TOO_LARGE');
  // Whole pixels: the PNG is width × height pixels of the area at scale 1.
  return {
    x: normal.x,
    y: normal.y,
    width: Math.round(normal.width),
    height: Math.round(normal.height),
  };
}
