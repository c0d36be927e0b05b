import { z } from 'zod';
import { env, serviceConfig } from '@wb/service-kit';

/** What createExportService needs from the configuration (the runner reads the rest). */
export interface ExportLimits {
  maxPixels: number;
  maxSide: number;
  maxObjects: number;
  workers: number;
  workerNice: number;
  maxWaiting: number;
  perUser: number;
  perUserWaiting: number;
  queueTimeoutMs: number;
  renderTimeoutMs: number;
  maxImageBytes: number;
  maxImagePixels: number;
  workerMaxHeapMb: number;
  workerRecycleTasks: number;
}

export const DEFAULT_EXPORT_LIMITS: ExportLimits = {
  maxPixels: 36_000_000,
  maxSide: 10_000,
  maxObjects: 10_000,
  workers: 2,
  workerNice: 10,
  maxWaiting: 32,
  perUser: 2,
  perUserWaiting: 8,
  queueTimeoutMs: 30_000,
  renderTimeoutMs: 60_000,
  maxImageBytes: 64 * 1024 * 1024,
  maxImagePixels: 16_000_000,
  workerMaxHeapMb: 512,
  workerRecycleTasks: 8,
};

const D = DEFAULT_EXPORT_LIMITS;

/** The export service's environment (common settings in serviceConfig); defaults from DEFAULT_EXPORT_LIMITS. */
export const ExportConfigSchema = serviceConfig(3007, {
  DATABASE_URL: env.url(),
  AUTH_JWKS_URL: env.url(),
  /** Boards' /internal/boards/:id/access (title, owner, background). */
  BOARDS_INTERNAL_URL: env.url(),
  /** Realtime's /internal/boards/:id/state and the board's images. */
  REALTIME_INTERNAL_URL: env.url(),
  /** Largest area in pixels (width × height) and along either side. */
  EXPORT_MAX_PIXELS: env.int(D.maxPixels, { min: 1 }),
  EXPORT_MAX_SIDE: env.int(D.maxSide, { min: 11 }),
  /** Most objects and arrows one export may draw. */
  EXPORT_MAX_OBJECTS: env.int(D.maxObjects, { min: 1 }),
  /** Rendering threads, and how many exports may wait for one, for how long. */
  EXPORT_WORKERS: env.int(D.workers, { min: 1 }),
  /** Niceness of the rendering threads (0 = normal priority, 19 = lowest). */
  EXPORT_WORKER_NICE: env.int(D.workerNice, { min: 0, max: 19 }),
  EXPORT_MAX_WAITING: env.int(D.maxWaiting, { min: 0 }),
  /** Exports one user may render at once, and how many more of theirs may wait (then 429). */
  EXPORT_PER_USER: env.int(D.perUser, { min: 1 }),
  EXPORT_PER_USER_WAITING: env.int(D.perUserWaiting, { min: 0 }),
  EXPORT_QUEUE_TIMEOUT_MS: env.int(D.queueTimeoutMs, { min: 1 }),
  /** A render running longer is stopped (its thread is replaced). */
  EXPORT_RENDER_TIMEOUT_MS: env.int(D.renderTimeoutMs, { min: 1 }),
  /** Total image bytes one export may embed. */
  EXPORT_MAX_IMAGE_BYTES: env.int(D.maxImageBytes, { min: 0 }),
  /** Pixels all pictures of one export are decoded at together (past it, each at a lower resolution). */
  EXPORT_MAX_IMAGE_PIXELS: env.int(D.maxImagePixels, { min: 1 }),
  /** V8 heap ceiling of each render thread (worker_threads resourceLimits), in MB. */
  EXPORT_WORKER_MAX_HEAP_MB: env.int(D.workerMaxHeapMb, { min: 64 }),
  /** Render tasks (a PNG band is one) after which the render threads are replaced (0 = never). */
  EXPORT_WORKER_RECYCLE_TASKS: env.int(D.workerRecycleTasks, { min: 0 }),
});
export type ExportConfig = z.infer<typeof ExportConfigSchema>;

export const limitsFromConfig = (c: ExportConfig): ExportLimits => ({
  maxPixels: c.EXPORT_MAX_PIXELS,
  maxSide: c.EXPORT_MAX_SIDE,
  maxObjects: c.EXPORT_MAX_OBJECTS,
  workers: c.EXPORT_WORKERS,
  workerNice: c.EXPORT_WORKER_NICE,
  maxWaiting: c.EXPORT_MAX_WAITING,
  perUser: c.EXPORT_PER_USER,
  perUserWaiting: c.EXPORT_PER_USER_WAITING,
  queueTimeoutMs: c.EXPORT_QUEUE_TIMEOUT_MS,
  renderTimeoutMs: c.EXPORT_RENDER_TIMEOUT_MS,
  maxImageBytes: c.EXPORT_MAX_IMAGE_BYTES,
  maxImagePixels: c.EXPORT_MAX_IMAGE_PIXELS,
  workerMaxHeapMb: c.EXPORT_WORKER_MAX_HEAP_MB,
  workerRecycleTasks: c.EXPORT_WORKER_RECYCLE_TASKS,
});
