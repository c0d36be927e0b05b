import { useCallback, useEffect, useImperativeHandle, useMemo, useRef, useState, type Ref } from 'react';
import type { CameraPosition, Point, Tool, ToolStyle } from '@wb/board-model';
import { ConfirmDialog } from '../../../components/ui/index.ts';
import { isEditable } from '@wb/board-model';
import { CanvasContextMenu, type ContextMenuItem, type ContextMenuState } from './ContextMenu.tsx';
import { CanvasEngine, type ArrowStyle, type EditRequest } from './engine/CanvasEngine.ts';
import { naturalSize, setImageSrcResolver } from './engine/render/images.ts';
import { ImageUploadError, clipboardImages, dataUrlUpload, externalImageUrl, fetchExternalImage, isImageFile } from './images.ts';
import { commandFor, isEditableTarget } from './keyboard.ts';
import { Listeners } from './listeners.ts';
import { SelectionOverlay } from './SelectionOverlay.tsx';
import { TemplateChooser } from './templates/TemplateChooser.tsx';
import { TextEditor } from './TextEditor.tsx';
import { Toolbar } from './Toolbar.tsx';
import { CLEAR_CONFIRM_TEXT, CONTEXT_LABELS, LABELS, VIEW_MODE } from './texts.ts';
import type { BoardCanvasHandle, BoardCanvasProps } from './types.ts';
import styles from './canvas.module.css';

declare global {
  interface Window {
    /** Test and benchmark hook: the mounted canvas (engine, document). */
    __wbCanvas?: CanvasEngine;
  }
}

const toCamera = (c: CameraPosition) => ({ x: c.position_x, y: c.position_y, scale: c.scale_x });
const toPosition = (c: { x: number; y: number; scale: number }): CameraPosition => ({
  position_x: c.x,
  position_y: c.y,
  scale_x: c.scale,
  scale_y: c.scale,
});

/** See index.ts for the contract with the board page. */
export function BoardCanvas(props: BoardCanvasProps & { ref?: Ref<BoardCanvasHandle> }) {
  const { doc, role, limits, background, camera, awareness, className, hideToolbar, ref } = props;
  const host = useRef<HTMLDivElement>(null);
  const latest = useRef(props);
  latest.current = props;
  const fallbackOrigin = useRef<object>({ canvas: 'local' });
  const origin = props.undoOrigin ?? fallbackOrigin.current;
  const overlay = useMemo(() => new Listeners(), []);
  const imageInput = useRef<HTMLInputElement>(null);
  const imageAt = useRef<Point | undefined>(undefined);
  const reportedCamera = useRef<string | null>(null);

  const [engine, setEngine] = useState<CanvasEngine | null>(null);
  const [tool, setToolState] = useState<Tool>('select');
  const [style, setStyleState] = useState<ToolStyle | null>(null);
  const [arrowStyle, setArrowStyleState] = useState<ArrowStyle>('solid');
  const [selection, setSelection] = useState<string[]>([]);
  const [arrowPending, setArrowPending] = useState(false);
  const [history, setHistory] = useState({ canUndo: false, canRedo: false });
  const [editing, setEditing] = useState<EditRequest | null>(null);
  const [templatesOpen, setTemplatesOpen] = useState(false);
  const [confirmClear, setConfirmClear] = useState(false);
  const [menu, setMenu] = useState<ContextMenuState | null>(null);

  useEffect(() => {
    const el = host.current!;
    const e = new CanvasEngine(el, doc, origin, {
      camera: (cam) => {
        const pos = toPosition(cam);
        reportedCamera.current = JSON.stringify(pos);
        latest.current.onCameraChange?.(pos);
      },
      selection: setSelection,
      tool: setToolState,
      overlay: overlay.emit,
      edit: setEditing,
      pickImage: (at) => {
        imageAt.current = at;
        imageInput.current?.click();
      },
      cursor: (p) => latest.current.onCursorMove?.(p),
      exportArea: (area) => latest.current.onExportArea?.(area),
      count: (n) => latest.current.onObjectCountChange?.(n),
      history: setHistory,
      contextMenu: (ev) => {
        latest.current.onContextMenu?.(ev);
        const items = contextMenuItems(e, latest.current.role, ev.objectId, (t) => latest.current.onMessage?.(t, 'error'));
        setMenu(items ? { x: ev.clientX, y: ev.clientY, items } : null);
      },
      message: (text, kind) => latest.current.onMessage?.(text, kind),
      arrowMode: setArrowPending,
    });
    setStyleState(e.style);
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
  }, [doc, overlay]);

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
  useEffect(() => {
    // Only a camera the canvas did not report itself (a loaded one) moves the view.
    if (!engine || !camera || JSON.stringify(camera) === reportedCamera.current) return;
    engine.setCamera(toCamera(camera));
  }, [engine, camera]);
  useEffect(() => {
    awareness?.setLocalStateField('selection', selection);
  }, [awareness, selection]);

  const insertImageFile = useCallback(
    async (file: File, at?: Point) => {
      if (!engine) return;
      const say = (t: string) => latest.current.onMessage?.(t, 'error');
      if (!isImageFile(file)) return say(LABELS.imageNotImage);
      let src: string;
      try {
        src = await (latest.current.uploadImage ?? dataUrlUpload)(file);
      } catch (err) {
        if (err instanceof ImageUploadError) return say(err.message);
        return say(err instanceof RangeError ? LABELS.imageTooLarge : LABELS.imageUploadFailed);
      }
      engine.insertImage(src, await naturalSize(src), at);
    },
    [engine],
  );

  /** An image from another page (pasted HTML, a dropped link): fetched here and uploaded like a file. */
  const insertExternalImage = useCallback(
    async (url: string, at?: Point) => {
      let file: File;
      try {
        file = await fetchExternalImage(url);
      } catch {
        return latest.current.onMessage?.(LABELS.imageFetchFailed, 'error');
      }
      await insertImageFile(file, at);
    },
    [insertImageFile],
  );

  // Read by the key handlers at the moment of the key, not when the handlers were registered.
  const blocked = useRef(false);
  blocked.current = !!editing || templatesOpen || confirmClear;

  // Hotkeys, space-drag and the clipboard, all ignored while a field has focus (§5).
  useEffect(() => {
    if (!engine) return;
    const keydown = (e: KeyboardEvent) => {
      if (isEditableTarget(e.target) || blocked.current) return;
      if (e.code === 'Space') {
        e.preventDefault();
        engine.setSpace(true);
        return;
      }
      const cmd = commandFor(e);
      if (!cmd) return;
      e.preventDefault();
      switch (cmd.kind) {
        case 'tool':
          if (cmd.tool === 'image' && !engine.readOnly) {
            imageAt.current = undefined;
            engine.setTool('image');
            imageInput.current?.click();
          } else engine.setTool(cmd.tool);
          return;
        case 'color':
          if (!engine.readOnly) {
            engine.recolorSelection(cmd.color);
            setStyleState(engine.style);
          }
          return;
        case 'undo':
          engine.undo();
          return;
        case 'redo':
          engine.redo();
          return;
        case 'delete':
          engine.deleteSelection();
          return;
        case 'escape':
          engine.escape();
          return;
      }
    };
    const keyup = (e: KeyboardEvent) => {
      if (e.code === 'Space') engine.setSpace(false);
    };
    const copy = (e: ClipboardEvent) => {
      if (isEditableTarget(e.target) || blocked.current) return;
      const text = engine.copy();
      if (!text || !e.clipboardData) return;
      e.clipboardData.setData('text/plain', text);
      e.preventDefault();
    };
    const paste = (e: ClipboardEvent) => {
      if (isEditableTarget(e.target) || blocked.current || engine.readOnly) return;
      const files = clipboardImages(e.clipboardData);
      const text = e.clipboardData?.getData('text/plain') ?? '';
      e.preventDefault();
      if (text && engine.paste(text)) return;
      for (const file of files) void insertImageFile(file);
      const external = files.length === 0 ? externalImageUrl(e.clipboardData) : null;
      if (external) void insertExternalImage(external);
    };
    // Dropped image files, or an image dragged from another page (its address), land where dropped.
    const dragover = (e: DragEvent) => {
      // Only over the canvas: elsewhere the browser keeps its own handling.
      if (engine.readOnly || !e.dataTransfer || !host.current?.contains(e.target as Node)) return;
      const types = [...e.dataTransfer.types];
      if (types.includes('Files') || types.includes('text/uri-list') || types.includes('text/html')) e.preventDefault();
    };
    const drop = (e: DragEvent) => {
      if (engine.readOnly || !e.dataTransfer || !host.current?.contains(e.target as Node)) return;
      e.preventDefault();
      const box = host.current.getBoundingClientRect();
      const at = engine.toBoard({ x: e.clientX - box.left, y: e.clientY - box.top });
      const files = [...e.dataTransfer.files];
      for (const file of files) void insertImageFile(file, at);
      const external = files.length === 0 ? externalImageUrl(e.dataTransfer) : null;
      if (external) void insertExternalImage(external, at);
    };
    window.addEventListener('keydown', keydown);
    window.addEventListener('keyup', keyup);
    document.addEventListener('copy', copy);
    document.addEventListener('paste', paste);
    document.addEventListener('dragover', dragover);
    document.addEventListener('drop', drop);
    return () => {
      document.removeEventListener('dragover', dragover);
      document.removeEventListener('drop', drop);
      window.removeEventListener('keydown', keydown);
      window.removeEventListener('keyup', keyup);
      document.removeEventListener('copy', copy);
      document.removeEventListener('paste', paste);
    };
  }, [engine, insertImageFile, insertExternalImage]);

  useImperativeHandle(
    ref,
    () => ({
      setTool: (t) => engine?.setTool(t),
      undo: () => engine?.undo(),
      redo: () => engine?.redo(),
      viewportCentre: () => engine?.viewportCentre() ?? { x: 0, y: 0 },
      toScreen: (p) => engine?.toScreen(p) ?? p,
      selectedIds: () => [...(engine?.selection ?? [])],
    }),
    [engine],
  );

  const readOnly = role === 'viewer' || role === 'guest';
  const selectedOne = engine && selection.length === 1 ? engine.store.object(selection[0]) : null;
  const editorBox = editing && engine ? screenBox(engine, editing) : null;

  return (
    <div className={`${styles.root} ${className ?? ''}`} data-testid="board-canvas" data-tool={tool} data-role={role}>
      <div ref={host} className={styles.stage} data-testid="canvas-stage" />
      {engine && style && !hideToolbar ? (
        <Toolbar
          tool={tool}
          onTool={(t) => {
            if (t === 'image') imageAt.current = undefined;
            engine.setTool(t);
            if (t === 'image') imageInput.current?.click();
          }}
          readOnly={readOnly}
          canSelect={role !== 'guest'}
          style={style}
          onStyle={(patch) => {
            engine.setStyle(patch);
            setStyleState(engine.style);
          }}
          onColor={(c) => {
            engine.recolorSelection(c);
            setStyleState(engine.style);
          }}
          arrowStyle={arrowStyle}
          onArrowStyle={(s) => {
            engine.arrowStyle = s;
            setArrowStyleState(s);
          }}
          canArrow={!!selectedOne && selectedOne.type !== 'path' && selectedOne.type !== 'highlighter'}
          arrowPending={arrowPending}
          onArrow={() => (arrowPending ? engine.cancelArrow() : engine.beginArrow())}
          canUndo={history.canUndo}
          canRedo={history.canRedo}
          onUndo={() => engine.undo()}
          onRedo={() => engine.redo()}
          onTemplates={() => setTemplatesOpen(true)}
          onClear={() => setConfirmClear(true)}
        />
      ) : null}
      {engine ? <SelectionOverlay engine={engine} overlay={overlay} /> : null}
      {menu ? <CanvasContextMenu key={`${menu.x},${menu.y}`} menu={menu} onClose={() => setMenu(null)} /> : null}
      {arrowPending ? <div className={styles.hint}>{LABELS.arrowHint}</div> : null}
      {editing && editorBox && engine ? (
        <TextEditor
          key={editing.object.id}
          request={editing}
          at={editorBox}
          onSave={(text) => {
            setEditing(null);
            engine.finishEdit(text);
          }}
          onCancel={() => {
            setEditing(null);
            engine.cancelEdit();
          }}
        />
      ) : null}
      {templatesOpen && engine ? <TemplateChooser engine={engine} onClose={() => setTemplatesOpen(false)} /> : null}
      {confirmClear && engine ? (
        <ConfirmDialog
          danger
          title={LABELS.clearTitle}
          message={CLEAR_CONFIRM_TEXT}
          confirmLabel={LABELS.clearConfirm}
          onConfirm={() => engine.clear()}
          onClose={() => setConfirmClear(false)}
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

/**
 * What a right click on `objectId` offers (§6): a viewer only 'Режим просмотра', on a selected sticky
 * or image; a guest nothing (no selection at all); an editor or the owner edit, copy, duplicate and
 * delete, on the object clicked (selected first, as in every editor of this kind). Empty canvas: no menu.
 */
function contextMenuItems(
  engine: CanvasEngine,
  role: BoardCanvasProps['role'],
  objectId: string | null,
  say: (text: string) => void,
): ContextMenuItem[] | null {
  const obj = objectId ? engine.store.object(objectId) : null;
  if (!obj || role === 'guest') return null;
  if (role === 'viewer') {
    if (!engine.selection.has(obj.id) || (obj.type !== 'sticky' && obj.type !== 'image')) return null;
    return [{ id: 'view-mode', label: VIEW_MODE, disabled: true }];
  }
  if (!engine.selection.has(obj.id)) engine.setSelection([obj.id]);
  const single = engine.selection.size === 1;
  const items: ContextMenuItem[] = [];
  if (single && isEditable(obj)) items.push({ id: 'edit', label: CONTEXT_LABELS.edit, run: () => engine.editObject(obj.id) });
  items.push(
    {
      id: 'copy',
      label: CONTEXT_LABELS.copy,
      run: () => {
        const text = engine.copy();
        if (text) void navigator.clipboard?.writeText(text).catch(() => say(CONTEXT_LABELS.copyFailed));
      },
    },
    {
      id: 'duplicate',
      label: CONTEXT_LABELS.duplicate,
      run: () => {
        const text = engine.copy();
        if (text) engine.paste(text);
      },
    },
    { id: 'delete', label: CONTEXT_LABELS.delete, danger: true, run: () => engine.deleteSelection() },
  );
  return items;
}

function screenBox(engine: CanvasEngine, req: EditRequest) {
  const o = req.object;
  const tl = engine.toScreen({ x: o.x, y: o.y });
  const w = o.type === 'sticky' ? o.width : 120;
  const h = o.type === 'sticky' ? o.height : o.fontSize * 1.2;
  return { x: tl.x, y: tl.y, width: w * engine.camera.scale, height: h * engine.camera.scale };
}
