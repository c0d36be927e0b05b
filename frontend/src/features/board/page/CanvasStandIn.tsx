/**
 * A plain-DOM stand-in with the props and handle of <BoardCanvas> (features/board/canvas/types.ts),
 * mounted only until the canvas component is committed; `canvasMount.ts` switches between them.
 * It draws objects as boxes and supports what the page's own features need: pan, wheel zoom,
 * cursor reporting, select (not for guests), move and delete (not read-only), a sticky on double
 * click (not read-only), the export area (drag with the export tool).
 */
import { forwardRef, useCallback, useEffect, useImperativeHandle, useMemo, useRef, useState } from 'react';
import {
  DEFAULT_STICKY_COLOR,
  addObject,
  WHEEL_ZOOM_FACTOR,
  boardToScreen,
  boundsOf,
  deleteObjects,
  getObjects,
  newSticky,
  nextZIndex,
  objectToJSON,
  screenToBoard,
  updateObject,
  zoomAt,
  type Camera,
  type CanvasObject,
  type Tool,
} from '@wb/board-model';
import type { BoardCanvasHandle, BoardCanvasProps } from '../canvas/types.ts';
import styles from './canvasStandIn.module.css';

function readObjects(props: BoardCanvasProps): CanvasObject[] {
  const out: CanvasObject[] = [];
  for (const map of getObjects(props.doc).values()) {
    const o = objectToJSON(map);
    if (o) out.push(o);
  }
  return out.sort((a, b) => a.zIndex - b.zIndex);
}

type Drag =
  | { kind: 'pan'; sx: number; sy: number; cam: Camera }
  | { kind: 'move'; id: string; sx: number; sy: number; ox: number; oy: number; moved: boolean }
  | { kind: 'area'; start: { x: number; y: number }; end: { x: number; y: number } };

export const CanvasStandIn = forwardRef<BoardCanvasHandle, BoardCanvasProps>(function CanvasStandIn(props, ref) {
  const { doc, role, background, awareness, undoOrigin, onCursorMove, onCameraChange, onObjectCountChange, onExportArea } = props;
  const readOnly = role === 'viewer' || role === 'guest';
  const host = useRef<HTMLDivElement>(null);
  const [objects, setObjects] = useState<CanvasObject[]>(() => readObjects(props));
  const [cam, setCam] = useState<Camera>({ x: 0, y: 0, scale: 1 });
  const camRef = useRef(cam);
  camRef.current = cam;
  const [selected, setSelected] = useState<string[]>([]);
  const [tool, setTool] = useState<Tool>('select');
  const drag = useRef<Drag | null>(null);
  const [area, setArea] = useState<{ x: number; y: number; width: number; height: number } | null>(null);

  useEffect(() => {
    const map = getObjects(doc);
    let frame = 0;
    const refresh = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const list = readObjects(props);
        setObjects(list);
        onObjectCountChange?.(list.length);
      });
    };
    map.observeDeep(refresh);
    refresh();
    return () => {
      map.unobserveDeep(refresh);
      cancelAnimationFrame(frame);
    };
    // Only the document matters here; the count callback is read at call time.
  }, [doc]);

  // The loaded camera (null: origin centred at scale 1).
  useEffect(() => {
    const el = host.current;
    const c = props.camera;
    const next = c
      ? { x: c.position_x, y: c.position_y, scale: c.scale_x }
      : { x: (el?.clientWidth ?? 0) / 2, y: (el?.clientHeight ?? 0) / 2, scale: 1 };
    setCam(next);
  }, [props.camera]);

  const changeCam = useCallback(
    (next: Camera) => {
      setCam(next);
      onCameraChange?.({ position_x: next.x, position_y: next.y, scale_x: next.scale, scale_y: next.scale });
    },
    [onCameraChange],
  );

  const select = useCallback(
    (ids: string[]) => {
      if (role === 'guest') return;
      setSelected(ids);
      awareness?.setLocalStateField('selection', ids);
    },
    [awareness, role],
  );

  useImperativeHandle(
    ref,
    () => ({
      setTool,
      undo() {},
      redo() {},
      viewportCentre() {
        const el = host.current;
        return screenToBoard(camRef.current, { x: (el?.clientWidth ?? 0) / 2, y: (el?.clientHeight ?? 0) / 2 });
      },
      toScreen: (p) => boardToScreen(camRef.current, p),
      selectedIds: () => selected,
    }),
    [selected],
  );

  const local = (e: { clientX: number; clientY: number }) => {
    const r = host.current!.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };

  const onPointerDown = (e: React.PointerEvent) => {
    const p = local(e);
    const target = (e.target as HTMLElement).closest<HTMLElement>('[data-object-id]');
    (e.currentTarget as HTMLElement).setPointerCapture?.(e.pointerId);
    if (tool === 'export-select') {
      const b = screenToBoard(cam, p);
      drag.current = { kind: 'area', start: b, end: b };
      return;
    }
    if (target && role !== 'guest') {
      const id = target.dataset.objectId!;
      select([id]);
      const obj = objects.find((o) => o.id === id);
      if (!readOnly && obj && 'x' in obj && 'y' in obj) {
        drag.current = { kind: 'move', id, sx: p.x, sy: p.y, ox: obj.x, oy: obj.y, moved: false };
        return;
      }
    } else if (!target) {
      select([]);
    }
    drag.current = { kind: 'pan', sx: p.x, sy: p.y, cam };
  };

  const onPointerMove = (e: React.PointerEvent) => {
    const p = local(e);
    onCursorMove?.(screenToBoard(cam, p));
    const d = drag.current;
    if (!d) return;
    if (d.kind === 'pan') changeCam({ ...d.cam, x: d.cam.x + p.x - d.sx, y: d.cam.y + p.y - d.sy });
    else if (d.kind === 'move') {
      d.moved = true;
      updateObject(doc, d.id, { x: d.ox + (p.x - d.sx) / cam.scale, y: d.oy + (p.y - d.sy) / cam.scale }, undoOrigin);
    } else {
      d.end = screenToBoard(cam, p);
      setArea(normal(d.start, d.end));
    }
  };

  const onPointerUp = () => {
    const d = drag.current;
    drag.current = null;
    if (d?.kind === 'area') {
      const a = normal(d.start, d.end);
      setArea(null);
      setTool('select');
      if (a.width > 10 && a.height > 10) onExportArea?.(a);
    }
  };

  const onDoubleClick = (e: React.MouseEvent) => {
    if (readOnly || (e.target as HTMLElement).closest('[data-object-id]')) return;
    const at = screenToBoard(cam, local(e));
    const sticky = newSticky(at, { stickyColor: DEFAULT_STICKY_COLOR }, { id: crypto.randomUUID(), zIndex: nextZIndex(doc) });
    addObject(doc, sticky, undoOrigin);
  };

  const onWheel = (e: React.WheelEvent) => {
    changeCam(zoomAt(cam, local(e), e.deltaY < 0 ? WHEEL_ZOOM_FACTOR : 1 / WHEEL_ZOOM_FACTOR));
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (readOnly || (e.key !== 'Delete' && e.key !== 'Backspace') || selected.length === 0) return;
    deleteObjects(doc, selected, undoOrigin);
    select([]);
  };

  const bgClass = useMemo(() => styles[`bg_${background}`] ?? '', [background]);
  const gridSize = background === 'dots' ? 10 : background === 'lines' ? 25 : 20;

  return (
    <div
      ref={host}
      className={`${styles.host} ${bgClass} ${props.className ?? ''}`}
      style={{ backgroundSize: `${gridSize * cam.scale}px ${gridSize * cam.scale}px`, backgroundPosition: `${cam.x}px ${cam.y}px` }}
      data-testid="board-canvas"
      data-background={background}
      data-camera={`${Math.round(cam.x)},${Math.round(cam.y)},${cam.scale.toFixed(3)}`}
      data-tool={tool}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerLeave={() => onCursorMove?.(null)}
      onDoubleClick={onDoubleClick}
      onWheel={onWheel}
      onKeyDown={onKeyDown}
    >
      {objects.map((o) => {
        const b = boundsOf(o);
        const s = boardToScreen(cam, { x: b.x, y: b.y });
        return (
          <div
            key={o.id}
            className={`${styles.object} ${selected.includes(o.id) ? styles.selected : ''}`}
            data-object-id={o.id}
            data-testid="canvas-object"
            data-type={o.type}
            data-x={'x' in o ? Math.round(o.x) : undefined}
            data-y={'y' in o ? Math.round(o.y) : undefined}
            style={{
              transform: `translate(${s.x}px, ${s.y}px)`,
              width: b.width * cam.scale,
              height: b.height * cam.scale,
              background: o.type === 'sticky' ? o.backgroundColor : undefined,
              fontSize: 14 * cam.scale,
            }}
          >
            {o.type === 'sticky' || o.type === 'text' ? o.text : null}
            {'reactions' in o && o.reactions.length > 0 ? (
              <span className={styles.reactions}>{o.reactions.map((r) => r.emoji).join('')}</span>
            ) : null}
          </div>
        );
      })}
      {area ? (
        <div
          className={styles.area}
          style={(() => {
            const a = boardToScreen(cam, area);
            return { transform: `translate(${a.x}px, ${a.y}px)`, width: area.width * cam.scale, height: area.height * cam.scale };
          })()}
        />
      ) : null}
    </div>
  );
});

function normal(a: { x: number; y: number }, b: { x: number; y: number }) {
  return { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), width: Math.abs(a.x - b.x), height: Math.abs(a.y - b.y) };
}
