import { describe, expect, it } from 'vitest';
import {
  STICKER_GRID,
  STICKER_STATUS_COLORS,
  autoStickerSize,
  cleanText,
  layoutStickers,
  parseStickerJson,
  stickySchema,
  validateStickerFile,
} from '../src/index.ts';

const error = (text: string) => {
  const r = parseStickerJson(text);
  if (r.ok) throw new Error('expected an error');
  return r.error;
};
const items = (list: unknown[]) => JSON.stringify(list);

describe('cleanText', () => {
  it('drops control characters but tab and line feed, and turns lone surrogates into U+FFFD', () => {
    expect(cleanText('A\u0000B\u0007C\u001bD\u007fE')).toBe('ABCDE');
    expect(cleanText('строка 1\nстрока\t2')).toBe('строка 1\nстрока\t2');
    expect(cleanText('x\uD800y\uDC00z')).toBe('x\uFFFDy\uFFFDz');
    expect(cleanText('пара 😀 цела')).toBe('пара 😀 цела');
    // What the author keeps is what a UTF-8 round trip (the wire) gives everyone else.
    const s = cleanText('a\uD83Db');
    expect(new TextDecoder().decode(new TextEncoder().encode(s))).toBe(s);
  });

  it('is applied to imported stickers', () => {
    const r = parseStickerJson(JSON.stringify([{ text: 'A\u0000B\uD800C' }]));
    expect(r.ok && r.stickers[0]!.text).toBe('AB\uFFFDC');
  });
});

describe('parseStickerJson', () => {
  it('reports invalid JSON with the parser message', () => {
    let detail = '';
    try {
      JSON.parse('{oops');
    } catch (e) {
      detail = (e as Error).message;
    }
    expect(error('{oops')).toBe(`Неверный формат JSON: ${detail}`);
  });

  it('requires a non-empty array of at most 100 items', () => {
    expect(error('{"text":"a"}')).toBe('JSON должен быть массивом объектов');
    expect(error('"a"')).toBe('JSON должен быть массивом объектов');
    expect(error('[]')).toBe('Массив не может быть пустым');
    expect(error(items(Array.from({ length: 101 }, () => ({ text: 'a' }))))).toBe(
      'Максимальное количество стикеров: 100',
    );
    expect(parseStickerJson(items(Array.from({ length: 100 }, () => ({ text: 'a' })))).ok).toBe(true);
  });

  it('numbers items from 1', () => {
    expect(error(items([{ text: 'a' }, 5]))).toBe('Элемент 2 должен быть объектом');
    expect(error(items([null]))).toBe('Элемент 1 должен быть объектом');
    expect(error(items([[{ text: 'a' }]]))).toBe('Элемент 1 должен быть объектом');
    expect(error(items([{ text: 'a' }, { text: 'b' }, { title: 'c' }]))).toBe(
      'Элемент 3 должен содержать поле "text" со строковым значением',
    );
    expect(error(items([{ text: 12 }]))).toBe(
      'Элемент 1 должен содержать поле "text" со строковым значением',
    );
  });

  it('limits text to 4096 characters', () => {
    expect(parseStickerJson(items([{ text: 'x'.repeat(4096) }])).ok).toBe(true);
    expect(error(items([{ text: 'a' }, { text: 'x'.repeat(4097) }]))).toBe(
      'Текст в элементе 2 слишком длинный (максимум 4096 символов)',
    );
  });

  it('accepts only type "sticky"', () => {
    expect(error(items([{ text: 'a', type: 'note' }]))).toBe(
      'Неверный тип в элементе 1: "note" (допускается только "sticky")',
    );
    expect(parseStickerJson(items([{ text: 'a', type: 'sticky' }]))).toEqual({
      ok: true,
      stickers: [{ text: 'a', type: 'sticky' }],
    });
  });

  it('accepts status 0–9 as a number or numeric string and names the bad value', () => {
    expect(
      parseStickerJson(
        items([
          { text: 'a', status: 0 },
          { text: 'b', status: '9' },
          { text: 'c', status: null },
        ]),
      ),
    ).toEqual({
      ok: true,
      stickers: [{ text: 'a', status: 0 }, { text: 'b', status: 9 }, { text: 'c' }],
    });
    expect(error(items([{ text: 'a', status: 10 }]))).toBe(
      'Неверный статус в элементе 1: 10 (допускается целое число от 0 до 9)',
    );
    expect(error(items([{ text: 'a' }, { text: 'b', status: 'high' }]))).toBe(
      'Неверный статус в элементе 2: "high" (допускается целое число от 0 до 9)',
    );
    expect(error(items([{ text: 'a', status: 2.5 }]))).toContain('2.5');
    expect(error(items([{ text: 'a', status: -1 }]))).toContain('-1');
    expect(error(items([{ text: 'a', status: true }]))).toContain('true');
  });
});

describe('validateStickerFile', () => {
  it('needs a JSON file of at most 1 MB', () => {
    expect(validateStickerFile({ name: 'a.json', type: 'application/json', size: 10 })).toEqual({ ok: true });
    expect(validateStickerFile({ name: 'A.JSON', type: '', size: 1024 * 1024 })).toEqual({ ok: true });
    expect(validateStickerFile({ name: 'a.txt', type: 'text/plain', size: 10 })).toEqual({
      ok: false,
      error: 'Пожалуйста, выберите JSON файл',
    });
    expect(validateStickerFile({ name: 'a.json', type: 'application/json', size: 1024 * 1024 + 1 })).toEqual({
      ok: false,
      error: 'Файл слишком большой (максимум 1MB)',
    });
  });
});

describe('layoutStickers', () => {
  it('sizes stickers within the §9 bounds', () => {
    expect(autoStickerSize('hi')).toEqual({ width: 120, height: 80 });
    expect(autoStickerSize('x'.repeat(100)).width).toBe(250);
    expect(autoStickerSize('x'.repeat(1000)).width).toBe(400);
    const tall = autoStickerSize('line\n'.repeat(20));
    expect(tall.height).toBeGreaterThan(80);
  });

  it('produces valid stickies coloured by status, 8 per row from (-700, -200)', () => {
    const input = Array.from({ length: 10 }, (_, i) => ({ text: `n${i}`, status: i }));
    const out = layoutStickers(input);
    for (const s of out) expect(stickySchema.safeParse(s).success).toBe(true);
    expect(out.map((s) => s.backgroundColor)).toEqual([...STICKER_STATUS_COLORS]);
    expect(out[0]).toMatchObject({ x: -700, y: -200, width: 120, height: 80, fontSize: 14, text: 'n0' });
    expect(out[1].x).toBe(-700 + 120 + STICKER_GRID.gapX);
    expect(out[7].y).toBe(-200);
    expect(out[8]).toMatchObject({ x: -700, y: -200 + 80 + STICKER_GRID.gapY });
    expect(new Set(out.map((s) => s.id)).size).toBe(10);
  });

  it('wraps a row before it passes 1400 px', () => {
    const out = layoutStickers(Array.from({ length: 6 }, () => ({ text: 'x'.repeat(1000) })));
    // 400 + 12 + 400 + 12 + 400 = 1224; a fourth would end at 1636.
    expect(out.slice(0, 3).map((s) => s.y)).toEqual([-200, -200, -200]);
    expect(out[3].x).toBe(-700);
    expect(out[3].y).toBe(-200 + out[0].height + 15);
    for (const s of out) expect(s.x + s.width).toBeLessThanOrEqual(-700 + 1400);
  });

  it('defaults to status 0 colour', () => {
    expect(layoutStickers([{ text: 'a' }])[0].backgroundColor).toBe('#FFF2B3');
  });
});
