/**
 * JSON sticker import (spec/board-page.md §5 "JSON import", §9 "Auto sticker size",
 * "Sticker grid"). The first problem found is reported, items in order, as the dialog shows
 * one message. Type and status messages are ours, worded like the spec's.
 */
import { cleanText } from './cleanText.ts';
import {
  AUTO_STICKER_FONT_SIZE,
  AUTO_STICKER_LONG_MAX_WIDTH,
  AUTO_STICKER_MAX_WIDTH,
  AUTO_STICKER_MIN_HEIGHT,
  AUTO_STICKER_MIN_WIDTH,
  DEFAULT_TEXT_COLOR,
  STICKER_FILE_MAX_BYTES,
  STICKER_GRID,
  STICKER_IMPORT_MAX_ITEMS,
  STICKER_STATUS_COLORS,
  STICKER_STATUS_MAX,
  STICKER_STATUS_MIN,
  STICKER_TEXT_MAX,
} from './constants.ts';
import { CHAR_WIDTH_RATIO, LINE_HEIGHT } from './geometry.ts';
import { createSticky, newId, type JsonSticker, type StickyObject } from './objects.ts';

export const STICKER_IMPORT_TEXTS = {
  invalidJson: (detail: string) => `Неверный формат JSON: ${detail}`,
  notArray: 'JSON должен быть массивом объектов',
  empty: 'Массив не может быть пустым',
  tooMany: 'Максимальное количество стикеров: 100',
  notObject: (n: number | string) => `Элемент ${n} должен быть объектом`,
  textRequired: (n: number | string) => `Элемент ${n} должен содержать поле "text" со строковым значением`,
  textTooLong: (n: number | string) => `Текст в элементе ${n} слишком длинный (максимум 4096 символов)`,
  invalidType: (n: number | string, value: string) =>
    `Неверный тип в элементе ${n}: ${value} (допускается только "sticky")`,
  invalidStatus: (n: number | string, value: string) =>
    `Неверный статус в элементе ${n}: ${value} (допускается целое число от 0 до 9)`,
  notJsonFile: 'Пожалуйста, выберите JSON файл',
  fileTooLarge: 'Файл слишком большой (максимум 1MB)',
  readError: 'Ошибка чтения файла',
} as const;

export type StickerImportResult = { ok: true; stickers: JsonSticker[] } | { ok: false; error: string };

/** The offending value as the user wrote it, cut short so a huge value cannot flood the dialog. */
function showValue(value: unknown): string {
  const shown = JSON.stringify(value) ?? String(value);
  return shown.length > 50 ? `${shown.slice(0, 47)}...` : shown;
}

function parseStatus(value: unknown): number | undefined {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\s*\d+\s*$/.test(value)
        ? Number(value)
        : NaN;
  return Number.isInteger(n) && n >= STICKER_STATUS_MIN && n <= STICKER_STATUS_MAX ? n : undefined;
}

/** A null type or status counts as absent: exporters often write missing fields as null. */
export function parseStickerJson(text: string): StickerImportResult {
  const T = STICKER_IMPORT_TEXTS;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: T.invalidJson(e instanceof Error ? e.message : String(e)) };
  }
  if (!Array.isArray(data)) return { ok: false, error: T.notArray };
  if (data.length === 0) return { ok: false, error: T.empty };
  if (data.length > STICKER_IMPORT_MAX_ITEMS) return { ok: false, error: T.tooMany };
  const stickers: JsonSticker[] = [];
  for (const [i, item] of data.entries()) {
    const n = i + 1;
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      return { ok: false, error: T.notObject(n) };
    const { text: body, type, status } = item as Record<string, unknown>;
    if (typeof body !== 'string') return { ok: false, error: T.textRequired(n) };
    if (body.length > STICKER_TEXT_MAX) return { ok: false, error: T.textTooLong(n) };
    if (type != null && type !== 'sticky') return { ok: false, error: T.invalidType(n, showValue(type)) };
    const sticker: JsonSticker = { text: cleanText(body) };
    if (type != null) sticker.type = 'sticky';
    if (status != null) {
      const parsed = parseStatus(status);
      if (parsed === undefined) return { ok: false, error: T.invalidStatus(n, showValue(status)) };
      sticker.status = parsed;
    }
    stickers.push(sticker);
  }
  return { ok: true, stickers };
}

/** Browsers give JSON files an empty or odd MIME type on some systems, so the extension also counts. */
export function validateStickerFile(file: {
  name: string;
  type: string;
  size: number;
}): { ok: true } | { ok: false; error: string } {
  const isJson = file.type === 'application/json' || file.name.toLowerCase().endsWith('.json');
  if (!isJson) return { ok: false, error: STICKER_IMPORT_TEXTS.notJsonFile };
  if (file.size > STICKER_FILE_MAX_BYTES) return { ok: false, error: STICKER_IMPORT_TEXTS.fileTooLarge };
  return { ok: true };
}

const PADDING = 10;
/** Past this many characters a sticker may grow to the wider 400 px so it does not become a tall strip. */
export const LONG_TEXT_CHARS = 200;

/** §9 "Auto sticker size": font 14, at least 120×80, at most 250 wide (400 for long text). */
export function autoStickerSize(text: string): { width: number; height: number } {
  const charWidth = AUTO_STICKER_FONT_SIZE * CHAR_WIDTH_RATIO;
  const lines = text.split('\n').map((l) => [...l].length);
  const maxWidth = text.length > LONG_TEXT_CHARS ? AUTO_STICKER_LONG_MAX_WIDTH : AUTO_STICKER_MAX_WIDTH;
  const natural = Math.max(...lines) * charWidth + 2 * PADDING;
  const width = Math.min(maxWidth, Math.max(AUTO_STICKER_MIN_WIDTH, Math.ceil(natural)));
  const perLine = Math.max(1, Math.floor((width - 2 * PADDING) / charWidth));
  const wrapped = lines.reduce((sum, chars) => sum + Math.max(1, Math.ceil(chars / perLine)), 0);
  const height = Math.max(
    AUTO_STICKER_MIN_HEIGHT,
    Math.ceil(wrapped * AUTO_STICKER_FONT_SIZE * LINE_HEIGHT + 2 * PADDING),
  );
  return { width, height };
}

/**
 * §9 "Sticker grid": rows from (-700, -200), a new row after 8 stickers or when the next one
 * would pass 1400 px; 12 px between stickers in a row, 15 px between rows (each row as tall as
 * its tallest sticker). Status picks the colour; no status is status 0.
 */
export function layoutStickers(
  stickers: readonly JsonSticker[],
  options: { zIndex?: number; makeId?: () => string } = {},
): StickyObject[] {
  const g = STICKER_GRID;
  const makeId = options.makeId ?? newId;
  let z = options.zIndex ?? 0;
  let x = g.startX;
  let y = g.startY;
  let inRow = 0;
  let rowHeight = 0;
  return stickers.map((s) => {
    const { width, height } = autoStickerSize(s.text);
    if (inRow > 0 && (inRow === g.maxPerRow || x + width > g.startX + g.maxRowWidth)) {
      x = g.startX;
      y += rowHeight + g.gapY;
      inRow = 0;
      rowHeight = 0;
    }
    const sticky = createSticky({
      id: makeId(),
      zIndex: z++,
      x,
      y,
      width,
      height,
      text: s.text,
      backgroundColor: STICKER_STATUS_COLORS[s.status ?? 0],
      textColor: DEFAULT_TEXT_COLOR,
      fontSize: AUTO_STICKER_FONT_SIZE,
      textAlign: 'left',
    });
    x += width + g.gapX;
    inRow++;
    rowHeight = Math.max(rowHeight, height);
    return sticky;
  });
}
