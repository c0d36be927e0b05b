import { useCallback, useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import { cameraToView, type Camera, type CameraPosition, type Point } from '@wb/board-model';
import { ConfirmDialog } from '../../../components/ui/index.ts';
import { BoundsOverlay } from './BoundsOverlay.tsx';
import { CanvasContextMenu } from './ContextMenu.tsx';
import { contextMenuItems } from './contextMenuItems.ts';
import { CanvasEngine } from './engine/CanvasEngine.ts';
import { CanvasStore } from './engine/canvasState.ts';
import { openView, zoomToFit, zoomToSelection } from './engine/navigation.ts';
import { setImageSrcResolver } from './engine/render/images.ts';
import { ArrangeBar } from './ArrangeBar.tsx';
import { RemoteCarets } from './RemoteCarets.tsx';
import { LockMarkers } from './LockMarkers.tsx';
import { SelectionOverlay } from './SelectionOverlay.tsx';
import { TemplateChooser } from './templates/TemplateChooser.tsx';
import { TextEditor } from './TextEditor.tsx';
import { Toolbar } from './Toolbar.tsx';
import { CLEAR_CONFIRM_TEXT, LABELS } from './texts.ts';
import type { BoardCanvasHandle, BoardCanvasProps } from './types.ts';
import { useCanvasKeys } from './useCanvasKeys.ts';
import { useCanvasState } from './useCanvasState.ts';
import { useImageInsert } from './useImageInsert.ts';
import styles from './canvas.module.css';

declare global {
  interface Window {
    /** Test and benchmark hook: the mounted canvas (engine, document). */
    __wbCanvas?: CanvasEngine;
  }
}

/** What the page saves: the view in board coordinates (centre and zoom), not the stage offset. */
const toPosition = (c: Camera, width: number, height: number): CameraPosition => {
  const view = cameraToView(c, width, height);
  return { position_x: view.x, position_y: view.y, scale_x: view.zoom, scale_y: view.zoom };
};

/**
 * See index.ts for the contract with the board page. The engine draws and edits; this shell shows
 * what the canvas store (engine/canvasState.ts) holds and passes the page's props to the engine.
 */
export function BoardCanvas(props: BoardCanvasProps & { ref?: Ref<BoardCanvasHandle> }) {
  const { doc, role, limits, background, camera, awareness, className, hideToolbar, ref } = props;
  const host = useRef<HTMLDivElement>(null);
  const latest = useRef(props);
  latest.current = props;
  const fallbackOrigin = useRef<object>({ canvas: 'local' });
  const origin = props.undoOrigin ?? fallbackOrigin.current;
  const [store] = useState(() => new CanvasStore());
  const imageInput = useRef<HTMLInputElement>(null);
  const imageAt = useRef<Point | undefined>(undefined);
  const viewOpened = useRef<CanvasEngine | null>(null);
  const [engine, setEngine] = useState<CanvasEngine | null>(null);

  const tool = useCanvasState(store, (s) => s.tool);
  const style = useCanvasState(store, (s) => s.style);
  const arrowStyle = useCanvasState(store, (s) => s.arrowStyle);
  const selection = useCanvasState(store, (s) => s.selection);
  const arrowPending = useCanvasState(store, (s) => s.arrowPending);
  const history = useCanvasState(store, (s) => s.history);
  const editing = useCanvasState(store, (s) => s.editing);
  const templatesOpen = useCanvasState(store, (s) => s.templatesOpen);
  const confirmClear = useCanvasState(store, (s) => s.confirmClear);
  const menu = useCanvasState(store, (s) => s.menu);

  useEffect(() => {
    const el = host.current!;
    const e = new CanvasEngine(el, doc, origin, store, {
      camera: (cam) => latest.current.onCameraChange?.(toPosition(cam, e.viewport.width, e.viewport.height)),
      pickImage: (at) => {
        imageAt.current = at;
        imageInput.current?.click();
      },
      cursor: (p) => latest.current.onCursorMove?.(p),
      exportArea: (area) => latest.current.onExportArea?.(area),
      count: (n) => latest.current.onObjectCountChange?.(n),
      contextMenu: (ev) => {
        latest.current.onContextMenu?.(ev);
        const items = contextMenuItems(e, latest.current.role, ev.objectId, (t) => latest.current.onMessage?.(t, 'error'));
        store.set({ menu: items ? { x: ev.clientX, y: ev.clientY, items } : null });
      },
      message: (text, kind) => latest.current.onMessage?.(text, kind),
    });
    setEngine(e);
    window.__wbCanvas = e;
    const resize = new ResizeObserver(() => e.setSize(el.clientWidth, el.clientHeight));
    resize.observe(el);
    return () => {
      resize.disconnect();
      e.destroy();
      if (window.__wbCanvas === e) delete window.__wbCanvas;
      setEngine(null);
    };
    // The origin is fixed for the engine's life; a new document makes a new engine.
  }, [doc, store]);

  const { resolveImageSrc, acceptsImageSrc } = props;
  useEffect(() => setImageSrcResolver(resolveImageSrc), [resolveImageSrc]);
  useEffect(() => {
    if (engine) engine.imageSrcFilter = acceptsImageSrc ?? null;
  }, [engine, acceptsImageSrc]);
  useEffect(() => engine?.setRole(role), [engine, role]);
  const { max_width: maxWidth, max_height: maxHeight, unlimited } = limits;
  // By value: the page may build a new limits object on every render.
  useEffect(
    () => engine?.setLimits({ max_width: maxWidth, max_height: maxHeight, unlimited }),
    [engine, maxWidth, maxHeight, unlimited],
  );
  useEffect(() => engine?.setBackground(background), [engine, background]);
  const { viewReady } = props;
  useEffect(() => {
    // The first view once (the user owns the camera after that); a page without viewReady shows each camera it passes.
    if (!engine || (viewReady === undefined ? !camera : !viewReady || viewOpened.current === engine)) return;
    viewOpened.current = engine;
    openView(engine, camera ?? null);
  }, [engine, camera, viewReady]);
  useEffect(() => {
    awareness?.setLocalStateField('selection', [...selection]);
  }, [awareness, selection]);

  const { insertImageFile, insertExternalImage } = useImageInsert(engine, latest);
  const chooseImage = useCallback(() => {
    imageAt.current = undefined;
    engine?.setTool('image');
    imageInput.current?.click();
  }, [engine]);
  useCanvasKeys({ engine, host, chooseImage, insertImageFile, insertExternalImage });

  useImperativeHandle(
    ref,
    () => ({
      setTool: (t) => engine?.setTool(t),
      undo: () => engine?.commands.undo(),
      redo: () => engine?.commands.redo(),
      viewportCentre: () => engine?.viewportCentre() ?? { x: 0, y: 0 },
      toScreen: (p) => engine?.toScreen(p) ?? p,
      selectedIds: () => [...(engine?.selection ?? [])],
    }),
    [engine],
  );

  const readOnly = role === 'viewer' || role === 'guest';
  const selectedOne = engine && selection.size === 1 ? engine.store.object([...selection][0]) : null;

  return (
    <div className={`${styles.root} ${className ?? ''}`} data-testid="board-canvas" data-tool={tool} data-role={role}>
      <div ref={host} className={styles.stage} data-testid="canvas-stage" />
      {engine ? <BoundsOverlay engine={engine} /> : null}
      {engine && !hideToolbar ? (
        <Toolbar
          tool={tool}
          onTool={(t) => (t === 'image' ? chooseImage() : engine.setTool(t))}
          readOnly={readOnly}
          canSelect={role !== 'guest'}
          style={style}
          onStyle={(patch) => engine.setStyle(patch)}
          onColor={(c) => engine.recolorSelection(c)}
          arrowStyle={arrowStyle}
          onArrowStyle={(s) => engine.setArrowStyle(s)}
          canArrow={!!selectedOne && selectedOne.type !== 'path' && selectedOne.type !== 'highlighter'}
          arrowPending={arrowPending}
          onArrow={() => (arrowPending ? engine.arrow.cancel() : engine.arrow.begin())}
          canUndo={history.canUndo}
          canRedo={history.canRedo}
          onUndo={() => engine.commands.undo()}
          onRedo={() => engine.commands.redo()}
          onTemplates={() => store.set({ templatesOpen: true })}
          onClear={() => store.set({ confirmClear: true })}
          onZoomToFit={() => zoomToFit(engine)}
          onZoomToSelection={() => zoomToSelection(engine)}
          hasSelection={selection.size > 0}
        />
      ) : null}
      {engine ? <SelectionOverlay engine={engine} /> : null}
      {engine ? <LockMarkers engine={engine} /> : null}
      {engine ? <ArrangeBar engine={engine} /> : null}
      {menu ? <CanvasContextMenu key={`${menu.x},${menu.y}`} menu={menu} onClose={() => store.set({ menu: null })} /> : null}
      {arrowPending ? <div className={styles.hint}>{LABELS.arrowHint}</div> : null}
      {editing && engine ? <TextEditor key={editing.object.id} engine={engine} request={editing} awareness={awareness} /> : null}
      {engine && awareness ? <RemoteCarets engine={engine} awareness={awareness} /> : null}
      {templatesOpen && engine ? <TemplateChooser engine={engine} onClose={() => store.set({ templatesOpen: false })} /> : null}
      {confirmClear && engine ? (
        <ConfirmDialog
          danger
          title={LABELS.clearTitle}
          message={CLEAR_CONFIRM_TEXT}
          confirmLabel={LABELS.clearConfirm}
          onConfirm={() => engine.commands.clear()}
          onClose={() => store.set({ confirmClear: false })}
          testId="clear-confirm"
          confirmTestId="clear-confirm-ok"
        />
      ) : null}
      <input
        ref={imageInput}
        className={styles.hiddenInput}
        type="file"
        accept="image/*"
        data-testid="image-input"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void insertImageFile(file, imageAt.current);
          engine?.setTool('select');
        }}
      />
    </div>
  );
}
