import { describe, expect, it } from 'vitest';
import {
  HOTKEY_COLORS,
  STICKY_DEFAULTS,
  acceptsBox,
  anchorOf,
  appendStrokePoint,
  arrowLook,
  arrowPoints,
  arrowRefusal,
  boundsOf,
  canStartArrow,
  centredCamera,
  clampMove,
  clampPointToCanvas,
  colorPatch,
  connectedSticky,
  copySelection,
  createSticky,
  hitsObject,
  isPointInsideCanvas,
  newImage,
  newSticky,
  newText,
  pinchFactor,
  planPaste,
  readClipboardText,
  screenToBoard,
  boardToScreen,
  shapeFromDrag,
  strokeLook,
  strokeObject,
  topmostHit,
  touchPinchFactor,
  transformPatch,
  translatePatch,
  visibleArea,
  wheelFactor,
  zoomAt,
  PASTE_MAX_OBJECTS,
  CLIPBOARD_TEXTS,
  type Arrow,
  type CanvasObject,
  type ToolStyle,
} from '../src/index.ts';

const style: ToolStyle = { color: '#000000', fill: 'transparent', brush: 2, fontSize: 16, stickyColor: '#FFF2B3' };
const base = { id: 'n1', zIndex: 3 };
const bounded = { max_width: 1000, max_height: 800, unlimited: false };
const unlimited = { max_width: 1, max_height: 1, unlimited: true };

describe('camera', () => {
  it('maps screen and board points both ways', () => {
    const cam = { x: 100, y: 50, scale: 2 };
    const b = screenToBoard(cam, { x: 300, y: 250 });
    expect(b).toEqual({ x: 100, y: 100 });
    expect(boardToScreen(cam, b)).toEqual({ x: 300, y: 250 });
    expect(visibleArea(cam, 400, 200)).toEqual({ x: -50, y: -25, width: 200, height: 100 });
    expect(centredCamera(800, 600)).toEqual({ x: 400, y: 300, scale: 1 });
  });

  it('zooms around the pointer and clamps to 0.1–5', () => {
    const cam = { x: 0, y: 0, scale: 1 };
    const pointer = { x: 200, y: 100 };
    const z = zoomAt(cam, pointer, 2);
    expect(screenToBoard(z, pointer)).toEqual(screenToBoard(cam, pointer));
    expect(zoomAt({ ...cam, scale: 4.9 }, pointer, 1.1).scale).toBe(5);
    expect(zoomAt({ ...cam, scale: 0.105 }, pointer, 1 / 1.1).scale).toBe(0.1);
  });

  it('wheel factor 1.1, pinch steps 1.02 / 1.05 / 1.08', () => {
    expect(wheelFactor(-100)).toBe(1.1);
    expect(wheelFactor(100)).toBeCloseTo(1 / 1.1);
    expect([pinchFactor(-1), pinchFactor(-6), pinchFactor(-30)]).toEqual([1.02, 1.05, 1.08]);
    expect(pinchFactor(30)).toBeCloseTo(1 / 1.08);
    expect(touchPinchFactor(100, 101)).toBe(1.02);
    expect(touchPinchFactor(100, 104)).toBe(1.05);
    expect(touchPinchFactor(100, 150)).toBe(1.08);
    expect(touchPinchFactor(100, 50)).toBeCloseTo(1 / 1.08);
    expect(touchPinchFactor(100, 100)).toBe(1);
  });
});

describe('bounded canvas', () => {
  it('knows inside from outside and clamps strokes to the edge', () => {
    expect(isPointInsideCanvas({ x: 499, y: -399 }, bounded)).toBe(true);
    expect(isPointInsideCanvas({ x: 501, y: 0 }, bounded)).toBe(false);
    expect(isPointInsideCanvas({ x: 1e6, y: 0 }, unlimited)).toBe(true);
    expect(clampPointToCanvas({ x: 900, y: -900 }, bounded)).toEqual({ x: 500, y: -400 });
  });

  it('stops a move at the edge, but lets an object already outside move freely', () => {
    expect(clampMove({ x: 400, y: 0, width: 50, height: 50 }, 200, 0, bounded)).toEqual({ x: 50, y: 0 });
    expect(clampMove({ x: 600, y: 0, width: 50, height: 50 }, 200, 0, bounded)).toEqual({ x: 200, y: 0 });
    expect(clampMove({ x: 0, y: 0, width: 50, height: 50 }, 1e5, 0, unlimited)).toEqual({ x: 1e5, y: 0 });
  });
});

describe('creation tools', () => {
  it('a drag makes a rectangle, an ellipse or a line; a click makes nothing', () => {
    expect(shapeFromDrag('rectangle', { x: 10, y: 10 }, { x: 12, y: 13 }, style, base)).toBeNull();
    expect(shapeFromDrag('rectangle', { x: 110, y: 60 }, { x: 10, y: 10 }, style, base)).toMatchObject({
      type: 'rectangle',
      x: 10,
      y: 10,
      width: 100,
      height: 50,
      stroke: '#000000',
      strokeWidth: 2,
    });
    expect(shapeFromDrag('ellipse', { x: 0, y: 0 }, { x: 100, y: 60 }, style, base)).toMatchObject({
      x: 50,
      y: 30,
      radiusX: 50,
      radiusY: 30,
    });
    expect(shapeFromDrag('line', { x: 0, y: 0 }, { x: 30, y: 40 }, style, base)).toMatchObject({ points: [0, 0, 30, 40] });
    // A thin but long rectangle keeps the 5 px minimum.
    expect(shapeFromDrag('rectangle', { x: 0, y: 0 }, { x: 100, y: 1 }, style, base)).toMatchObject({ height: 5 });
  });

  it('pen and highlighter strokes: highlighter max(8, brush×4) at 40 %', () => {
    expect(strokeLook('pen', 4)).toEqual({ strokeWidth: 4, opacity: 1 });
    expect(strokeLook('highlighter', 1)).toEqual({ strokeWidth: 8, opacity: 0.4 });
    expect(strokeLook('highlighter', 16)).toEqual({ strokeWidth: 64, opacity: 0.4 });
    const pts: number[] = [];
    expect(appendStrokePoint(pts, { x: 0, y: 0 }, 1)).toBe(true);
    expect(appendStrokePoint(pts, { x: 0.5, y: 0 }, 1)).toBe(false);
    expect(appendStrokePoint(pts, { x: 3, y: 4 }, 1)).toBe(true);
    expect(strokeObject('highlighter', pts, style, base)).toMatchObject({ type: 'highlighter', points: [0, 0, 3, 4], strokeWidth: 8 });
    // A click is a dot.
    expect(strokeObject('pen', [5, 5], style, base)).toMatchObject({ type: 'path', points: [5, 5, 5, 5] });
    expect(strokeObject('pen', [], style, base)).toBeNull();
  });

  it('sticky and text defaults of §9', () => {
    const s = newSticky({ x: 1, y: 2 }, style, base);
    expect(s).toMatchObject({ ...STICKY_DEFAULTS, x: 1, y: 2, text: 'Новый стикер', backgroundColor: '#FFF2B3' });
    expect(newText({ x: 0, y: 0 }, style, base)).toMatchObject({ text: 'Новый текст', fontSize: 16 });
  });

  it('images fit 400×300 around the centre', () => {
    expect(newImage({ x: 0, y: 0 }, '/img/a', { width: 800, height: 300 }, base)).toMatchObject({ x: -200, y: -75, width: 400, height: 150 });
    expect(newImage({ x: 0, y: 0 }, '/img/a', { width: 40, height: 30 }, base)).toMatchObject({ width: 40, height: 30 });
  });

  it('connected stickers sit 40 px away on each side', () => {
    const from = createSticky({ id: 's', x: 0, y: 0, width: 120, height: 100 });
    const at = (side: 'top' | 'bottom' | 'left' | 'right') => {
      const s = connectedSticky(from, side, base);
      return [s.x, s.y];
    };
    expect(at('right')).toEqual([160, 0]);
    expect(at('left')).toEqual([-160, 0]);
    expect(at('top')).toEqual([0, -140]);
    expect(at('bottom')).toEqual([0, 140]);
  });
});

describe('transforms', () => {
  const r: CanvasObject = { id: 'r', type: 'rectangle', zIndex: 0, x: 10, y: 20, width: 100, height: 50, fill: '#fff', stroke: '#000', strokeWidth: 2, rotation: 0 };
  const t: CanvasObject = { id: 't', type: 'text', zIndex: 0, x: 0, y: 0, text: 'a', fontSize: 10, fill: '#000', fontFamily: 'Arial' };
  const p: CanvasObject = { id: 'p', type: 'path', zIndex: 0, points: [0, 0, 10, 10], stroke: '#000', strokeWidth: 2, tension: 0 };

  it('scales sizes, keeps minimums (5, 10 in a group, font 8) and rounds', () => {
    expect(transformPatch(r, { x: 10, y: 20, scaleX: 1.5, scaleY: 2, rotation: 30 })).toEqual({ x: 10, y: 20, width: 150, height: 100, rotation: 30 });
    expect(transformPatch(r, { x: 10, y: 20, scaleX: 0.01, scaleY: 0.01, rotation: 0 })).toMatchObject({ width: 5, height: 5 });
    expect(transformPatch(r, { x: 10, y: 20, scaleX: 0.01, scaleY: 0.01, rotation: 0 }, true)).toMatchObject({ width: 10, height: 10 });
    expect(transformPatch(r, { x: 10, y: 20, scaleX: 1.4999999999, scaleY: 1, rotation: -30 })).toMatchObject({ width: 150, rotation: 330 });
    expect(transformPatch(t, { x: 0, y: 0, scaleX: 1, scaleY: 0.1, rotation: 0 })).toMatchObject({ fontSize: 8 });
    expect(transformPatch(t, { x: 0, y: 0, scaleX: 1, scaleY: 2, rotation: 0 })).toMatchObject({ fontSize: 20 });
    expect(transformPatch(p, { x: 5, y: 5, scaleX: 2, scaleY: 2, rotation: 0 })).toEqual({ points: [5, 5, 25, 25] });
  });

  it('moves every type by its anchor', () => {
    expect(anchorOf(r)).toEqual({ x: 10, y: 20 });
    expect(anchorOf(p)).toEqual({ x: 0, y: 0 });
    expect(translatePatch(r, 5, -5)).toMatchObject({ x: 15, y: 15, width: 100 });
    expect(translatePatch(p, 5, -5)).toEqual({ points: [5, -5, 15, 5] });
  });

  it('the transformer refuses boxes under the minimum', () => {
    expect(acceptsBox({ width: 4, height: 50 }, false)).toBe(false);
    expect(acceptsBox({ width: 5, height: 5 }, false)).toBe(true);
    expect(acceptsBox({ width: 9, height: 50 }, true)).toBe(false);
  });
});

describe('hit-testing', () => {
  it('hits shapes, not their empty bounds', () => {
    const stroke: CanvasObject = { id: 'p', type: 'path', zIndex: 0, points: [0, 0, 100, 100], stroke: '#000', strokeWidth: 4, tension: 0 };
    expect(hitsObject(stroke, { x: 50, y: 50 }, 1)).toBe(true);
    expect(hitsObject(stroke, { x: 90, y: 10 }, 1)).toBe(false);
    const e: CanvasObject = { id: 'e', type: 'ellipse', zIndex: 0, x: 0, y: 0, radiusX: 50, radiusY: 20, fill: '#fff', stroke: '#000', strokeWidth: 0 };
    expect(hitsObject(e, { x: 45, y: 0 }, 0)).toBe(true);
    expect(hitsObject(e, { x: 45, y: 18 }, 0)).toBe(false);
    const rot: CanvasObject = { id: 'r', type: 'rectangle', zIndex: 0, x: 0, y: 0, width: 100, height: 10, fill: '#fff', stroke: '#000', strokeWidth: 0, rotation: 90 };
    expect(hitsObject(rot, { x: -5, y: 50 }, 0)).toBe(true);
    expect(hitsObject(rot, { x: 50, y: 5 }, 0)).toBe(false);
  });

  it('answers the topmost object', () => {
    const a = createSticky({ id: 'a', x: 0, y: 0, zIndex: 1 });
    const b = createSticky({ id: 'b', x: 50, y: 50, zIndex: 2 });
    expect(topmostHit([a, b], { x: 60, y: 60 }, 0)?.id).toBe('b');
    expect(topmostHit([a, b], { x: 10, y: 10 }, 0)?.id).toBe('a');
    expect(topmostHit([a, b], { x: 500, y: 500 }, 0)).toBeNull();
  });
});

describe('arrows', () => {
  const a = createSticky({ id: 'a', x: 0, y: 0 });
  const b = createSticky({ id: 'b', x: 300, y: 0 });
  const stroke: CanvasObject = { id: 'p', type: 'highlighter', zIndex: 0, points: [0, 0, 1, 1], stroke: '#000', strokeWidth: 8, tension: 0 };

  it('every cancel rule of §9', () => {
    expect(arrowRefusal(a, b)).toBeNull();
    expect(arrowRefusal(a, null)).toBe('missing');
    expect(arrowRefusal(a, a)).toBe('same');
    expect(arrowRefusal(a, stroke)).toBe('not-connectable');
    expect(canStartArrow(stroke)).toBe(false);
    expect(canStartArrow(a)).toBe(true);
  });

  it('runs edge to edge and follows a moved end', () => {
    expect(arrowPoints(boundsOf(a), boundsOf(b))).toEqual([120, 60, 300, 60]);
    const moved = { ...b, y: 300 };
    const [x1, y1, x2, y2] = arrowPoints(boundsOf(a), boundsOf(moved));
    expect([x1, y1]).toEqual([120, 120]);
    expect([x2, y2]).toEqual([300, 300]);
  });

  it('head 15 and the dash patterns', () => {
    const arrow = (style: Arrow['style']): Arrow => ({ id: 'x', fromId: 'a', toId: 'b', style, color: '#333', strokeWidth: 2 });
    expect(arrowLook(arrow('solid'))).toEqual({ dash: [], pointerLength: 15, pointerWidth: 15 });
    expect(arrowLook(arrow('dashed')).dash).toEqual([10, 5]);
    expect(arrowLook(arrow('dotted')).dash).toEqual([2, 3]);
  });
});

describe('clipboard', () => {
  const a = createSticky({ id: 'a', x: 0, y: 0 });
  const b = createSticky({ id: 'b', x: 300, y: 0 });
  const c = createSticky({ id: 'c', x: 600, y: 0 });
  const ab: Arrow = { id: 'ab', fromId: 'a', toId: 'b', style: 'dashed', color: '#333', strokeWidth: 2 };
  const bc: Arrow = { id: 'bc', fromId: 'b', toId: 'c', style: 'solid', color: '#333', strokeWidth: 2 };

  it('copies an arrow only with both its ends', () => {
    expect(copySelection([a, b, c], [ab, bc], new Set(['a', 'b'])).arrows.map((x) => x.id)).toEqual(['ab']);
    expect(copySelection([a, b, c], [ab, bc], new Set(['a'])).arrows).toEqual([]);
  });

  it('round-trips through text and pastes with new ids, re-pointed arrows and an offset', () => {
    const text = JSON.stringify(copySelection([a, b, c], [ab, bc], new Set(['a', 'b'])));
    const read = readClipboardText(text);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    let n = 0;
    const plan = planPaste(read.payload, { offset: { x: 20, y: 20 }, zIndexStart: 10, limits: unlimited, makeId: () => `new${++n}` });
    expect(plan.ok).toBe(true);
    if (!plan.ok) return;
    expect(plan.objects.map((o) => [o.id, (o as { x: number }).x, o.zIndex])).toEqual([
      ['new1', 20, 10],
      ['new2', 320, 11],
    ]);
    expect(plan.arrows).toEqual([{ ...ab, id: 'new3', fromId: 'new1', toId: 'new2' }]);
  });

  it('keeps a paste inside a bounded canvas', () => {
    const plan = planPaste({ objects: [createSticky({ id: 'a', x: 370, y: 0 })], arrows: [] }, { offset: { x: 20, y: 20 }, zIndexStart: 0, limits: bounded });
    expect(plan.ok && (plan.objects[0] as { x: number }).x).toBe(380);
  });

  it('ignores foreign text, skips invalid objects, refuses arrows alone and huge pastes', () => {
    expect(readClipboardText('hello')).toEqual({ ok: false, error: null });
    expect(readClipboardText('{"kind":"other"}')).toEqual({ ok: false, error: null });
    const junk = { kind: 'whiteboard/objects', version: 1, objects: [{ id: 'x', type: 'rectangle', x: 'NaN' }, a], arrows: [] };
    const read = readClipboardText(JSON.stringify(junk));
    expect(read.ok && read.payload.objects.map((o) => o.id)).toEqual(['a']);
    expect(readClipboardText(JSON.stringify({ ...junk, objects: [], arrows: [ab] }))).toEqual({ ok: false, error: CLIPBOARD_TEXTS.nothing });
    const many = { ...junk, objects: Array.from({ length: PASTE_MAX_OBJECTS + 1 }, (_, i) => ({ ...a, id: `a${i}` })) };
    expect(readClipboardText(JSON.stringify(many))).toEqual({ ok: false, error: CLIPBOARD_TEXTS.tooMany });
  });
});

describe('recolouring', () => {
  it('puts the colour where each type shows it', () => {
    const [black] = HOTKEY_COLORS;
    expect(colorPatch(createSticky({ id: 's', x: 0, y: 0 }), black)).toEqual({ backgroundColor: black });
    expect(colorPatch({ id: 't', type: 'text', zIndex: 0, x: 0, y: 0, text: '', fontSize: 10, fill: '#fff', fontFamily: 'Arial' }, black)).toEqual({ fill: black });
    expect(colorPatch({ id: 'p', type: 'path', zIndex: 0, points: [0, 0, 1, 1], stroke: '#fff', strokeWidth: 1, tension: 0 }, black)).toEqual({ stroke: black });
  });
});
