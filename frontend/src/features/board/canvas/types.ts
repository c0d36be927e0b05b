import type { Awareness } from 'y-protocols/awareness';
import type * as Y from 'yjs';
import type { Background, BoardRole, Bounds, CameraPosition, CanvasLimits, Tool } from '@wb/board-model';

/** A board area in board coordinates. */
export type Area = Bounds;

export interface BoardCanvasProps {
  /** The board document (objects and arrows maps, libs/board-model). Synced by the page's provider. */
  doc: Y.Doc;
  /** viewer and guest get the read-only canvas of §6 (select + hand; guests cannot select). */
  role: BoardRole;
  /** From the board answer; a bounded canvas spans ± half of each dimension around the origin. */
  limits: Pick<CanvasLimits, 'max_width' | 'max_height' | 'unlimited'>;
  background: Background;
  /**
   * The remembered camera: with `device`, a view in board coordinates (the board point at the
   * viewport's centre and the zoom); without, the old stage offset (converted with today's size).
   * Shown once, when `viewReady` first becomes true; none: the content is fitted (an empty board:
   * the origin centred at scale 1). Without `viewReady` it is shown whenever it changes.
   */
  camera?: CameraPosition | null;
  /** The page's objects and camera answer are in (§4 steps 3–4): the canvas opens its first view. */
  viewReady?: boolean;
  /**
   * Every camera change (pan, zoom, zoom to fit), at most once per animation frame, as a view in
   * board coordinates (position = the viewport's centre, scale = zoom; no device: the page adds its
   * own). The page debounces the save.
   */
  onCameraChange?: (camera: CameraPosition) => void;
  /** Local awareness: the canvas writes `selection` (ids) into the local state; the page owns user and cursor. */
  awareness?: Awareness | null;
  /**
   * The transaction origin of this user's edits; Y.UndoManager tracks only it, so remote changes are
   * never undone. Pass the same value the page uses for its own local edits (default: a private object).
   */
  undoOrigin?: unknown;
  /** Pointer position in board coordinates (null when it leaves the canvas): footer and awareness cursor. */
  onCursorMove?: (point: { x: number; y: number } | null) => void;
  /** The area chosen with the export-select tool (over 10×10); the tool then returns to select. */
  onExportArea?: (area: Area) => void;
  /**
   * Stores an image and answers its URL (the image store). Without it images are kept as data URLs
   * in the document (small boards, tests).
   */
  uploadImage?: (file: File) => Promise<string>;
  /**
   * Turns a stored image `src` into a URL the browser may load (the image store wants a signed URL:
   * `createImageUrlSigner` from this module). Default: only data URLs load.
   */
  resolveImageSrc?: (src: string) => string | Promise<string>;
  /**
   * Whether an image `src` may be written to this board (board-model imageSrcAllowed: the board's
   * own store or a small data URL; the server refuses anything else). Pasted objects with another
   * source are left out. Default: everything.
   */
  acceptsImageSrc?: (src: string) => boolean;
  /** Valid objects on the board, after every change. */
  onObjectCountChange?: (count: number) => void;
  /** Right click on an object (or the empty canvas: objectId null), for the page's context menu. */
  onContextMenu?: (event: { objectId: string | null; clientX: number; clientY: number }) => void;
  /** Messages for the user (paste refused, upload failed...); the page shows them as toasts. */
  onMessage?: (text: string, kind: 'info' | 'error') => void;
  /** Hide the built-in toolbar (the page may place <Toolbar> itself through the handle). */
  hideToolbar?: boolean;
  className?: string;
}

/** What the page can do to the canvas (React ref on <BoardCanvas>). */
export interface BoardCanvasHandle {
  setTool(tool: Tool): void;
  undo(): void;
  redo(): void;
  /** Board coordinates of the viewport's centre (where templates and images land). */
  viewportCentre(): { x: number; y: number };
  /** Screen position (relative to the canvas element) of a board point, for overlays such as remote cursors. */
  toScreen(point: { x: number; y: number }): { x: number; y: number };
  selectedIds(): string[];
}
