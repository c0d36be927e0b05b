/**
 * What the canvas benches use of the page's `window.__wbCanvas` (the SPA's CanvasEngine, exposed by
 * frontend/src/features/board/canvas/BoardCanvas.tsx). The engine's own type lives in the SPA's
 * project (bundler resolution, DOM and React types), so the benches, type-checked with the services,
 * declare the part they call.
 */
import type * as Y from 'yjs';

interface BenchCamera {
  x: number;
  y: number;
  scale: number;
}

interface BenchCanvasEngine {
  readonly doc: Y.Doc;
  readonly origin: unknown;
  camera: BenchCamera;
  setCamera(camera: BenchCamera, notify?: boolean): void;
  /** While held the page draws no frame (a photograph of a gesture's frame). */
  holdFrames(held: boolean): void;
  /** The stage's size in CSS px. */
  readonly viewport: { readonly width: number; readonly height: number };
  /** A board point on the screen (CSS px from the stage's corner). */
  toScreen(board: { x: number; y: number }): { x: number; y: number };
  add(objects: never[], arrows?: never[]): void;
  store: { readonly objectCount: number; object(id: string): unknown; entries: Map<string, unknown> };
  readonly stats: {
    firstDrawAt: number | null;
    staticDraws: number;
    drawnItems: number;
    frames: number;
    /** ms spent in the renderer's frames altogether. */
    busyMs: number;
    /** The last frame showed every visible tile up to date. */
    complete: boolean;
    /** [object count, ms, scale] of each static draw whose count or scale changed. */
    draws: Array<[number, number, number]>;
  };
}

declare global {
  interface Window {
    __wbCanvas?: BenchCanvasEngine;
  }
}
