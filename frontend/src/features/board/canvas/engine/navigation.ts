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
  getObjects,
  objectToJSON,
  readBoard,
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
/** From the document, not the scene store: the store catches up once per frame, after the board has just loaded. */
const contentBounds = (engine: CanvasEngine): Bounds | null => boundsOfAll(readBoard(engine.doc).objects);
/** The selected objects as the document holds them (a template selected in the same task is not in the store yet). */
const selectionBounds = (engine: CanvasEngine): Bounds | null => {
  const map = getObjects(engine.doc);
  return boundsOfAll(
    [...engine.selection].flatMap((id) => {
      const fields = map.get(id);
      const obj = fields ? objectToJSON(fields) : null;
      return obj ? [obj] : [];
    }),
  );
};

export function currentView(engine: CanvasEngine): CameraView {
  const v = engine.viewport;
  return cameraToView(v.camera, v.width, v.height);
}

/** Shift+1: every object in view (at most scale 1); an empty board gets the default view. */
export function zoomToFit(engine: CanvasEngine): void {
  const v = engine.viewport;
  engine.moveCamera(fitCamera(contentBounds(engine), v.width, v.height));
}

/** Shift+2: the selection fills the view (up to the maximum zoom); nothing selected: nothing happens. */
export function zoomToSelection(engine: CanvasEngine): boolean {
  const bounds = selectionBounds(engine);
  if (!bounds) return false;
  const v = engine.viewport;
  engine.moveCamera(fitCamera(bounds, v.width, v.height, { maxZoom: MAX_ZOOM }));
  return true;
}

/** After a template lands: the view moves (zooming out only) until the selection is wholly visible. */
export function revealSelection(engine: CanvasEngine): void {
  const bounds = selectionBounds(engine);
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
    : fitCamera(contentBounds(engine), v.width, v.height);
  engine.setCamera(camera);
}
