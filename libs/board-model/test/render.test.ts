import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import {
  addArrow,
  addObject,
  arrowToSceneItem,
  backgroundToScene,
  boardToScene,
  measureText,
  objectToSceneItem,
  polylinePathData,
  sceneToSvg,
  wrapText,
  type Scene,
} from '../src/index.ts';

const AREA = { x: -100, y: -100, width: 1200, height: 800 };

const sticky = {
  id: 's1',
  type: 'sticky',
  x: 0,
  y: 0,
  width: 120,
  height: 120,
  text: 'Новый стикер с текстом',
  backgroundColor: '#FFF2B3',
  textColor: '#333333',
  fontSize: 14,
  textAlign: 'center',
  zIndex: 3,
  reactions: [
    { emoji: '👍', userId: 'u1', userName: 'Аня' },
    { emoji: '👍', userId: 'u2', userName: 'Боря' },
    { emoji: '🔥', userId: 'u1', userName: 'Аня' },
  ],
};
const rect = {
  id: 'r1',
  type: 'rectangle',
  x: 300,
  y: 0,
  width: 100,
  height: 60,
  fill: '#ff0000',
  stroke: '#000000',
  strokeWidth: 2,
  rotation: 30,
  zIndex: 1,
};
const ellipse = {
  id: 'e1',
  type: 'ellipse',
  x: 600,
  y: 100,
  radiusX: 50,
  radiusY: 30,
  fill: '#00ff00',
  stroke: '#111111',
  strokeWidth: 3,
  zIndex: 2,
};
const line = {
  id: 'l1',
  type: 'line',
  points: [0, 300, 200, 350],
  stroke: '#0000ff',
  strokeWidth: 4,
  zIndex: 4,
};
const path = {
  id: 'p1',
  type: 'path',
  points: [300, 300, 350, 360, 400, 300, 450, 380],
  stroke: '#222222',
  strokeWidth: 2,
  tension: 0.5,
  zIndex: 5,
};
const highlighter = { ...path, id: 'h1', type: 'highlighter', strokeWidth: 16, stroke: '#FFEB3B', zIndex: 6 };
const text = {
  id: 't1',
  type: 'text',
  x: 600,
  y: 300,
  text: 'Новый текст\nвторая',
  fontSize: 20,
  fill: '#333333',
  zIndex: 7,
};
const image = {
  id: 'i1',
  type: 'image',
  x: 800,
  y: 0,
  width: 200,
  height: 150,
  src: '/yjs/images/b1/abc',
  zIndex: 8,
  reactions: [{ emoji: '❤️', userId: 'u1', userName: 'Аня' }],
};
const all = [sticky, rect, ellipse, line, path, highlighter, text, image];

type Node = Record<string, unknown>;
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', preserveOrder: false });
/** Every element of `tag` anywhere in the parsed SVG. */
function findAll(node: unknown, tag: string, out: Node[] = []): Node[] {
  if (Array.isArray(node)) node.forEach((n) => findAll(n, tag, out));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === tag) (Array.isArray(value) ? value : [value]).forEach((v) => out.push(v as Node));
      findAll(value, tag, out);
    }
  }
  return out;
}
function groupOf(svg: string, id: string): Node {
  const group = findAll(parser.parse(svg), 'g').find((g) => g['data-id'] === id);
  if (!group) throw new Error(`no group for ${id}`);
  return group;
}

function sceneOf(objects: unknown[], arrows: unknown[] = [], background = 'white'): Scene {
  return boardToScene(
    { objects: Object.fromEntries(objects.map((o) => [(o as { id: string }).id, o])), arrows },
    { area: AREA, background },
  );
}

describe('boardToScene', () => {
  it('draws every object type in zIndex order, arrows last', () => {
    const scene = sceneOf(all, [{ id: 'a1', fromId: 's1', toId: 'r1' }]);
    expect(scene.items.map((i) => i.id)).toEqual(['r1', 'e1', 's1', 'l1', 'p1', 'h1', 't1', 'i1', 'a1']);
  });

  it('skips objects that fail their schema, and arrows to missing or freehand ends', () => {
    const broken = { id: 'x', type: 'rectangle', x: Number.NaN, y: 0 };
    const scene = sceneOf(
      [sticky, broken, path, { id: 'y', type: 'nope' }, 'garbage'],
      [
        { id: 'a1', fromId: 's1', toId: 'gone' },
        { id: 'a2', fromId: 's1', toId: 'p1' },
        { id: 'a3', fromId: 's1', toId: 's1' },
      ],
    );
    expect(scene.items.map((i) => i.id)).toEqual(['s1', 'p1']);
    expect(objectToSceneItem(broken)).toBeNull();
  });

  it('reads a Y.Doc the same as its JSON snapshot', () => {
    const doc = new Y.Doc();
    for (const o of all) addObject(doc, o as never);
    addArrow(doc, { id: 'a1', fromId: 's1', toId: 'e1', style: 'dotted' });
    const fromDoc = boardToScene(doc, { area: AREA, background: 'grid' });
    const fromJson = sceneOf(all, [{ id: 'a1', fromId: 's1', toId: 'e1', style: 'dotted' }], 'grid');
    expect(sceneToSvg(fromDoc)).toBe(sceneToSvg(fromJson));
  });

  it('leaves out objects outside the area', () => {
    const far = { ...rect, id: 'far', x: 50_000, y: 50_000, rotation: 0 };
    expect(sceneOf([rect, far]).items.map((i) => i.id)).toEqual(['r1']);
  });

  it('skips temporary objects still being drawn', () => {
    expect(sceneOf([{ ...rect, temporary: true }]).items).toHaveLength(0);
  });
});

describe('objects', () => {
  it('sticky: rounded rect with shadow, wrapped text, reaction chips with counts', () => {
    const item = objectToSceneItem(sticky)!;
    const [bg, txt, ...chips] = item.primitives;
    expect(bg).toMatchObject({ kind: 'rect', fill: '#FFF2B3', width: 120, height: 120 });
    expect(bg.kind === 'rect' && bg.shadow).toBeTruthy();
    expect(txt).toMatchObject({ kind: 'text', fill: '#333333', align: 'center', fontSize: 14, width: 100 });
    if (txt.kind !== 'text') throw new Error('text expected');
    expect(txt.lines.length).toBeGreaterThan(1);
    for (const l of txt.lines) expect(measureText(l, 14)).toBeLessThanOrEqual(100);
    const labels = chips.flatMap((c) => (c.kind === 'text' ? c.lines : []));
    expect(labels).toEqual(['👍 2', '🔥 1']);
  });

  it('sticky text that does not fit the height is cut', () => {
    const long = { ...sticky, text: 'слово '.repeat(200), reactions: [] };
    const txt = objectToSceneItem(long)!.primitives[1];
    if (txt.kind !== 'text') throw new Error('text expected');
    expect(txt.lines.length).toBe(Math.floor((120 - 20) / (14 * 1.2)));
  });

  it('highlighter is drawn at 40 % opacity, pen with its tension', () => {
    expect(objectToSceneItem(highlighter)!.primitives[0]).toMatchObject({ opacity: 0.4, strokeWidth: 16 });
    expect(objectToSceneItem(path)!.primitives[0]).toMatchObject({ tension: 0.5, opacity: undefined });
  });

  it('rotated rectangle bounds contain every corner', () => {
    const b = objectToSceneItem(rect)!.bounds;
    const rad = Math.PI / 6;
    const corner = [300 + 100 * Math.cos(rad) - 60 * Math.sin(rad), 100 * Math.sin(rad) + 60 * Math.cos(rad)];
    expect(b.x).toBeLessThanOrEqual(corner[0]);
    expect(b.x + b.width).toBeGreaterThanOrEqual(300 + 100 * Math.cos(rad));
    expect(b.y + b.height).toBeGreaterThanOrEqual(corner[1]);
  });
});

describe('arrows', () => {
  const from = { x: 0, y: 0, width: 100, height: 100 };
  const to = { x: 300, y: 0, width: 100, height: 100 };

  it('runs between the boxes on the centre line, head 15', () => {
    const item = arrowToSceneItem({ id: 'a', fromId: 'f', toId: 't' }, from, to)!;
    expect(item.primitives[0]).toMatchObject({
      kind: 'arrow',
      points: [100, 50, 300, 50],
      pointerLength: 15,
      pointerWidth: 15,
      strokeWidth: 2,
      dash: undefined,
    });
  });

  it('leaves a box through its top when the target is above', () => {
    const item = arrowToSceneItem({ id: 'a', fromId: 'f', toId: 't', style: 'dashed' }, from, {
      x: 0,
      y: -400,
      width: 100,
      height: 100,
    })!;
    expect(item.primitives[0]).toMatchObject({ points: [50, 0, 50, -300], dash: [10, 5] });
  });

  it('dotted is [2,3]; an invalid arrow is skipped', () => {
    expect(
      arrowToSceneItem({ id: 'a', fromId: 'f', toId: 't', style: 'dotted' }, from, to)!.primitives[0],
    ).toMatchObject({ dash: [2, 3] });
    expect(arrowToSceneItem({ id: 'a', fromId: 'f', toId: 't', style: 'wavy' }, from, to)).toBeNull();
  });
});

describe('backgrounds', () => {
  it('white, grid 20, dots 10 and 50, lines 25 over the area only', () => {
    expect(backgroundToScene('white', AREA)).toEqual([{ kind: 'rect', ...AREA, fill: '#FFFFFF' }]);
    expect(backgroundToScene('grid', AREA)[1]).toMatchObject({
      kind: 'pattern',
      mark: 'grid',
      spacing: 20,
      ...AREA,
    });
    expect(
      backgroundToScene('dots', AREA)
        .slice(1)
        .map((p) => p.kind === 'pattern' && p.spacing),
    ).toEqual([10, 50]);
    expect(backgroundToScene('lines', AREA)[1]).toMatchObject({ mark: 'hlines', spacing: 25 });
    expect(backgroundToScene('plaid', AREA)).toHaveLength(1);
  });
});

describe('text wrapping', () => {
  it('is deterministic and keeps explicit newlines', () => {
    expect(wrapText('один два три', 14, 40)).toEqual(['один', 'два', 'три']);
    expect(wrapText('a\nb', 14)).toEqual(['a', 'b']);
  });

  it('breaks a word wider than the box by characters', () => {
    const lines = wrapText('ааааааааааааааааааааааааааааа', 14, 50);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.join('')).toBe('ааааааааааааааааааааааааааааа');
  });

  it('measures Cyrillic and emoji from the bundled fonts', () => {
    expect(measureText('Ж', 10)).toBeGreaterThan(measureText('г', 10));
    expect(measureText('👍', 10)).toBeCloseTo(12.7, 1);
  });
});

describe('sceneToSvg', () => {
  const svg = sceneToSvg(
    sceneOf(all, [{ id: 'a1', fromId: 's1', toId: 'e1', style: 'dashed', color: '#123456' }], 'dots'),
    {
      imageHref: (src) => (src === image.src ? 'data:image/png;base64,AAAA' : undefined),
    },
  );
  const doc = parser.parse(svg) as Node;

  it('is one SVG whose viewBox is the area', () => {
    const root = doc.svg as Node;
    expect(root.viewBox).toBe('-100 -100 1200 800');
    expect(root.width).toBe('1200');
  });

  it('rectangle with fill, stroke and rotation about its corner', () => {
    const r = groupOf(svg, 'r1').rect as Node;
    expect(r).toMatchObject({
      fill: '#ff0000',
      stroke: '#000000',
      'stroke-width': '2',
      transform: 'rotate(30 300 0)',
    });
  });

  it('ellipse, line, pen and highlighter', () => {
    expect(groupOf(svg, 'e1').ellipse).toMatchObject({
      cx: '600',
      cy: '100',
      rx: '50',
      ry: '30',
      fill: '#00ff00',
    });
    expect(groupOf(svg, 'l1').path).toMatchObject({
      d: 'M0 300 L200 350',
      stroke: '#0000ff',
      'stroke-linecap': 'round',
    });
    expect((groupOf(svg, 'p1').path as Node).d).toMatch(/^M300 300 Q.* C.* Q.* 450 380$/);
    expect(groupOf(svg, 'h1').path).toMatchObject({ opacity: '0.4', 'stroke-width': '16' });
  });

  it('sticky text lines, aligned, in the bundled font; emoji in the emoji font', () => {
    const g = groupOf(svg, 's1');
    const texts = findAll(g, 'text');
    expect(findAll(g, 'g')[0]).toMatchObject({ 'font-family': 'DejaVu Sans', fill: '#333333' });
    expect(texts[0]).toMatchObject({ 'text-anchor': 'middle', x: '60' });
    expect(texts.map((t) => t['font-family'])).toContain('Noto Emoji');
  });

  it('free text: one line per row', () => {
    const texts = findAll(groupOf(svg, 't1'), 'text').map((t) => t['#text']);
    expect(texts).toEqual(['Новый текст', 'вторая']);
  });

  it('image: grey placeholder under the embedded image, reaction chip', () => {
    const g = groupOf(svg, 'i1');
    const rects = findAll(g, 'rect');
    expect(rects[0]).toMatchObject({ fill: '#E0E0E0', width: '200', height: '150' });
    expect(findAll(g, 'image')[0]).toMatchObject({ href: 'data:image/png;base64,AAAA' });
  });

  it('arrow: dashed shaft and a filled head in its colour', () => {
    const paths = findAll(groupOf(svg, 'a1'), 'path');
    expect(paths[0]).toMatchObject({ stroke: '#123456', 'stroke-dasharray': '10 5' });
    expect(paths[1]).toMatchObject({ fill: '#123456' });
    expect(paths[1]['stroke-dasharray']).toBeUndefined();
  });

  it('background patterns for dots', () => {
    const patterns = findAll(doc, 'pattern');
    expect(patterns.map((p) => p.width)).toEqual(['10', '50']);
  });

  it('escapes text', () => {
    const evil = { ...text, id: 'ev', text: '<script>&"' };
    const out = sceneToSvg(sceneOf([evil]));
    expect(out).toContain('&lt;script&gt;&amp;&quot;');
    expect(out).not.toContain('<script>');
  });
});

describe('polylinePathData', () => {
  it('matches konva: straight segments without tension', () => {
    expect(polylinePathData([0, 0, 10, 10, 20, 0])).toBe('M0 0 L10 10 L20 0');
  });
});
