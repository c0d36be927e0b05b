/**
 * Finding one's way (issue 35 items 5, 6): zoom to fit the content or the selection, show a placed
 * template, and the view in board coordinates that the page remembers. The rules (fit, reveal,
 * view ↔ camera) are pure in libs/board-model (tools/camera.ts); this applies them to the engine.
 * Camera changes go through moveCamera, so the page is told and saves them like a gesture's.
 */
import {
  MAX_ZOOM,
  boundsOf,
  cameraToView,
  fitCamera,
  revealCamera,
  storedView,
  unionBounds,
  viewToCamera,
  type Bounds,
  type CameraPosition,
  type CameraView,
  type CanvasObject,
} from '@wb/board-model';
import type { CanvasEngine } from './CanvasEngine.ts';

const boundsOfAll = (objects: CanvasObject[]): Bounds | null => unionBounds(objects.map(boundsOf));

export function currentView(engine: CanvasEngine): CameraView {
  const v = engine.viewport;
  return cameraToView(v.camera, v.width, v.height);
}

/** Shift+1: every object in view (at most scale 1); an empty board gets the default view. */
export function zoomToFit(engine: CanvasEngine): void {
  const v = engine.viewport;
  engine.moveCamera(fitCamera(boundsOfAll(engine.store.allObjects()), v.width, v.height));
}

/** Shift+2: the selection fills the view (up to the maximum zoom); nothing selected: nothing happens. */
export function zoomToSelection(engine: CanvasEngine): boolean {
  const bounds = boundsOfAll(engine.selectedObjects());
  if (!bounds) return false;
  const v = engine.viewport;
  engine.moveCamera(fitCamera(bounds, v.width, v.height, { maxZoom: MAX_ZOOM }));
  return true;
}

/** After a template lands: the view moves (zooming out only) until the selection is wholly visible. */
export function revealSelection(engine: CanvasEngine): void {
  const bounds = boundsOfAll(engine.selectedObjects());
  if (!bounds) return;
  const v = engine.viewport;
  const next = revealCamera(v.camera, v.width, v.height, bounds);
  if (next !== v.camera) engine.moveCamera(next);
}

/**
 * The view a board opens with: the remembered camera (either format, storedView converts the old
 * one), or, with none, the content fitted (an empty board: origin centred at scale 1, the spec's default).
 */
export function openView(engine: CanvasEngine, stored: CameraPosition | null): void {
  const v = engine.viewport;
  const camera = stored
    ? viewToCamera(storedView(stored, v.width, v.height), v.width, v.height)
    : fitCamera(boundsOfAll(engine.store.allObjects()), v.width, v.height);
  engine.setCamera(camera);
}
