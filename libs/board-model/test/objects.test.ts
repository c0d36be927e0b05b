import { describe, expect, it } from 'vitest';
import {
  OBJECT_TYPES,
  arrowSchema,
  cameraPositionSchema,
  canvasObjectSchema,
  createSticky,
  jsonStickerSchema,
  kanbanSettingsSchema,
  calendarSettingsSchema,
  snapshotSchema,
} from '../src/index.ts';

const base = { id: 'o1', zIndex: 1 };
const valid = {
  rectangle: {
    ...base,
    type: 'rectangle',
    x: 1,
    y: 2,
    width: 3,
    height: 4,
    fill: '#fff',
    stroke: 'rgba(0,0,0,0.5)',
    strokeWidth: 1,
    rotation: 30,
  },
  ellipse: {
    ...base,
    type: 'ellipse',
    x: 0,
    y: 0,
    radiusX: 5,
    radiusY: 6,
    fill: 'transparent',
    stroke: '#000',
    strokeWidth: 1,
  },
  line: { ...base, type: 'line', points: [0, 0, 10, 10] },
  text: {
    ...base,
    type: 'text',
    x: 0,
    y: 0,
    text: 'Новый текст',
    fontSize: 16,
    fill: '#000',
    fontFamily: 'Arial',
  },
  path: { ...base, type: 'path', points: [0, 0, 1, 1, 2, 2], stroke: '#000', strokeWidth: 2, tension: 0.5 },
  highlighter: {
    ...base,
    type: 'highlighter',
    points: [0, 0, 1, 1],
    stroke: '#FFEB3B',
    strokeWidth: 16,
    tension: 0,
  },
  sticky: {
    ...base,
    type: 'sticky',
    x: 0,
    y: 0,
    width: 120,
    height: 120,
    text: 'a',
    backgroundColor: '#FFF2B3',
    textColor: '#333333',
    fontSize: 14,
    textAlign: 'center',
    reactions: [],
  },
  image: {
    ...base,
    type: 'image',
    x: 0,
    y: 0,
    width: 10,
    height: 10,
    src: 'https://example.com/a.png',
    reactions: [],
  },
} as const;

describe('object schemas', () => {
  it('cover every §3 type', () => {
    expect(OBJECT_TYPES.sort()).toEqual(Object.keys(valid).sort());
    for (const v of Object.values(valid)) expect(canvasObjectSchema.safeParse(v).success, v.type).toBe(true);
  });

  it('reject what a hostile client might store', () => {
    const bad: Array<[keyof typeof valid, Record<string, unknown>]> = [
      ['rectangle', { x: NaN }],
      ['rectangle', { width: Infinity }],
      ['rectangle', { x: 1e12 }],
      ['rectangle', { fill: '"/><script>' }],
      ['rectangle', { id: '' }],
      ['ellipse', { radiusX: -1 }],
      ['line', { points: [0, 0, 1] }],
      ['path', { points: [0, 0, 1] }],
      ['path', { points: Array(20_002).fill(0) }],
      ['path', { tension: 3 }],
      ['text', { text: 'x'.repeat(501) }],
      ['text', { fontSize: 2 }],
      ['sticky', { text: 'x'.repeat(4097) }],
      ['sticky', { textAlign: 'justify' }],
      ['sticky', { reactions: [{ emoji: '<b>', userId: 'u', userName: 'x' }] }],
      ['image', { src: 'javascript:alert(1)' }],
      ['image', { src: `data:image/png;base64,${'A'.repeat(2 * 1024 * 1024)}` }],
      ['image', { type: 'video' }],
    ];
    for (const [type, patch] of bad) {
      expect(
        canvasObjectSchema.safeParse({ ...valid[type], ...patch }).success,
        `${type} ${Object.keys(patch)}`,
      ).toBe(false);
    }
  });

  it('text and sticky limits differ: 500 in the editor, 4096 for imported stickers', () => {
    expect(canvasObjectSchema.safeParse({ ...valid.text, text: 'x'.repeat(500) }).success).toBe(true);
    expect(canvasObjectSchema.safeParse({ ...valid.sticky, text: 'x'.repeat(4096) }).success).toBe(true);
  });

  it('strips unknown fields and fills defaults', () => {
    const parsed = canvasObjectSchema.parse({ ...valid.line, evil: 'x', zIndex: undefined });
    expect(parsed).toEqual({
      id: 'o1',
      type: 'line',
      zIndex: 0,
      points: [0, 0, 10, 10],
      stroke: '#000000',
      strokeWidth: 2,
    });
  });

  it('createSticky uses the §9 defaults', () => {
    expect(createSticky({ x: 5, y: 6 })).toMatchObject({
      type: 'sticky',
      x: 5,
      y: 6,
      width: 120,
      height: 120,
      text: 'Новый стикер',
      backgroundColor: '#FFF2B3',
      textColor: '#333333',
      fontSize: 14,
      textAlign: 'left',
      reactions: [],
    });
  });
});

describe('other schemas', () => {
  it('arrow', () => {
    expect(arrowSchema.parse({ id: 'a', fromId: 'x', toId: 'y' })).toEqual({
      id: 'a',
      fromId: 'x',
      toId: 'y',
      style: 'solid',
      color: '#333333',
      strokeWidth: 2,
    });
    expect(arrowSchema.safeParse({ id: 'a', fromId: 'x', toId: 'x' }).success).toBe(false);
    expect(arrowSchema.safeParse({ id: 'a', fromId: 'x', toId: 'y', style: 'wavy' }).success).toBe(false);
  });

  it('camera, snapshot, settings, JSON sticker', () => {
    expect(
      cameraPositionSchema.safeParse({ position_x: 10, position_y: -5, scale_x: 1, scale_y: 1 }).success,
    ).toBe(true);
    expect(
      cameraPositionSchema.safeParse({ position_x: 10, position_y: -5, scale_x: 9, scale_y: 1 }).success,
    ).toBe(false);
    expect(
      snapshotSchema.safeParse({
        id: 's',
        version: 3,
        created_at: '2025-01-01T00:00:00Z',
        blob_size: 10,
        status: 'small',
      }).success,
    ).toBe(true);
    expect(
      snapshotSchema.safeParse({ id: 's', version: 3, created_at: 'x', blob_size: 10, status: 'huge' })
        .success,
    ).toBe(false);
    expect(kanbanSettingsSchema.safeParse({ columns: ['a'], colors: [] }).success).toBe(false);
    expect(calendarSettingsSchema.safeParse({ month: 12, year: 2025 }).success).toBe(false);
    expect(jsonStickerSchema.safeParse({ text: 'a', type: 'sticky', status: 9 }).success).toBe(true);
    expect(jsonStickerSchema.safeParse({ text: 'a', status: 10 }).success).toBe(false);
  });
});
