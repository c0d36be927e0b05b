/**
 * A payment receipt as a scene (no I/O): the same primitives a board is drawn with, so the PDF
 * comes out of render/pdf.ts with its embedded fonts and real, selectable text. One A4 page in points.
 */
import { SCENE_FONT_FAMILY, type Scene, type ScenePrimitive } from '@wb/board-model';
import type { ReceiptInput } from '@wb/contracts';

export const A4 = { width: 595, height: 842 } as const;
const MARGIN = 56;
const LABEL_W = 130;
/** DejaVu Sans averages about 0.6 em a character: 50 at 11 pt fill the value column. */
const VALUE_CHARS = 50;
const VALUE_SIZE = 11;

const PROVIDERS: Record<string, string> = { test: 'Тестовый платёжный шлюз', yookassa: 'ЮKassa', stripe: 'Stripe' };

/** Control characters and lone surrogates never reach the PDF (they have no glyph). */
const clean = (s: string) =>
  s
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
    // eslint-disable-next-line no-control-regex -- removing control characters is the point
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
    .trim();

/** Splits a long value (a long name, an e-mail) into lines of at most `n` characters. */
function wrap(s: string, n: number): string[] {
  const words = clean(s).split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = '';
  for (let w of words) {
    while (w.length > n) {
      if (line) lines.push(line);
      lines.push(w.slice(0, n));
      w = w.slice(n);
      line = '';
    }
    if (!w) continue;
    if (line && line.length + 1 + w.length > n) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  return lines.length ? lines : ['—'];
}

export const formatMoney = (minor: number, currency: string) =>
  new Intl.NumberFormat('ru-RU', { style: 'currency', currency }).format(minor / 100);

const formatDate = (iso: string) =>
  new Intl.DateTimeFormat('ru-RU', { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'UTC' }).format(
    new Date(iso),
  ) + ' UTC';

const text = (x: number, y: number, lines: string[], fontSize: number, fill = '#0f172a', width?: number, align: 'left' | 'right' = 'left'): ScenePrimitive => ({
  kind: 'text',
  x,
  y,
  width,
  lines,
  fontSize,
  fontFamily: SCENE_FONT_FAMILY,
  lineHeight: fontSize * 1.4,
  fill,
  align,
});

export function receiptScene(r: ReceiptInput): Scene {
  const prims: ScenePrimitive[] = [
    { kind: 'rect', x: 0, y: 0, width: A4.width, height: A4.height, fill: '#ffffff' },
    { kind: 'rect', x: 0, y: 0, width: A4.width, height: 8, fill: '#4f46e5' },
    text(MARGIN, MARGIN, ['Кассовый чек'], 24),
    text(MARGIN, MARGIN + 38, [`№ ${r.payment_id}`], 10, '#475569'),
  ];
  const rows: Array<[string, string]> = [
    ['Дата оплаты', formatDate(r.paid_at)],
    ['Покупатель', r.user_name],
    ['E-mail', r.user_email],
    ['Тариф', `${r.plan_name}, ${r.days} дн.`],
    ['Способ оплаты', PROVIDERS[r.provider] ?? r.provider],
    ['Статус', 'Оплачено'],
  ];
  let y = MARGIN + 90;
  for (const [label, value] of rows) {
    const lines = wrap(value, VALUE_CHARS);
    prims.push(text(MARGIN, y, [label], VALUE_SIZE, '#64748b'), text(MARGIN + LABEL_W, y, lines, VALUE_SIZE));
    y += lines.length * VALUE_SIZE * 1.4 + 12;
  }
  y += 8;
  prims.push({ kind: 'rect', x: MARGIN, y, width: A4.width - 2 * MARGIN, height: 1, fill: '#cbd5e1' });
  y += 20;
  prims.push(
    text(MARGIN, y, ['Итого'], 16),
    text(MARGIN + LABEL_W, y, [formatMoney(r.amount_minor, r.currency)], 16, '#0f172a', A4.width - 2 * MARGIN - LABEL_W, 'right'),
  );
  prims.push(text(MARGIN, A4.height - MARGIN - 14, ['Онлайн-доска · чек сформирован автоматически'], 9, '#94a3b8'));
  return {
    area: { x: 0, y: 0, ...A4 },
    background: [],
    items: [{ id: r.payment_id, kind: 'object', bounds: { x: 0, y: 0, ...A4 }, primitives: prims.map((p) => (p.kind === 'text' ? { ...p, lines: p.lines.map(clean) } : p)) }],
  };
}
