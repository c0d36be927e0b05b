import { describe, expect, it } from 'vitest';
import {
  CALENDAR_COLORS,
  KANBAN_COLORS,
  calendarTemplate,
  calendarYears,
  canvasObjectSchema,
  defaultKanbanSettings,
  kanbanTemplate,
  monthGrid,
  validateKanbanSettings,
  type CanvasObject,
  type RectangleObject,
  type TextObject,
} from '../src/index.ts';

const rects = (list: CanvasObject[]) => list.filter((o): o is RectangleObject => o.type === 'rectangle');
const texts = (list: CanvasObject[]) => list.filter((o): o is TextObject => o.type === 'text');

describe('kanban', () => {
  it('defaults to the four named columns', () => {
    expect(defaultKanbanSettings().columns).toEqual(['Текущие', 'В работе', 'На проверке', 'Выполнено']);
    expect(validateKanbanSettings(defaultKanbanSettings())).toEqual([]);
  });

  it('allows 2 to 6 columns', () => {
    expect(validateKanbanSettings({ columns: ['a', 'b'] })).toEqual([]);
    expect(validateKanbanSettings({ columns: ['a', 'b', 'c', 'd', 'e', 'f'] })).toEqual([]);
    expect(validateKanbanSettings({ columns: ['a'] })).toEqual(['Количество колонок должно быть от 2 до 6']);
    expect(validateKanbanSettings({ columns: Array(7).fill('a') })).toEqual([
      'Количество колонок должно быть от 2 до 6',
    ]);
  });

  it('names are non-empty and at most 20 characters', () => {
    expect(validateKanbanSettings({ columns: ['a', 'x'.repeat(20)] })).toEqual([]);
    expect(validateKanbanSettings({ columns: ['  ', 'x'.repeat(21)] })).toEqual([
      'Название колонки 1 не может быть пустым',
      'Название колонки 2 слишком длинное (максимум 20 символов)',
    ]);
  });

  it('lays out 200×400 columns 50 apart from the origin with names on top', () => {
    const settings = { columns: ['Один', 'Два', 'Три'], colors: ['#FF0000'] };
    const out = kanbanTemplate(settings, { x: 100, y: -50 }, { zIndex: 10 });
    for (const o of out) expect(canvasObjectSchema.safeParse(o).success).toBe(true);
    const cols = rects(out);
    expect(cols.map((c) => [c.x, c.y, c.width, c.height])).toEqual([
      [100, -50, 200, 400],
      [350, -50, 200, 400],
      [600, -50, 200, 400],
    ]);
    expect(cols.map((c) => c.fill)).toEqual(['#FF0000', KANBAN_COLORS[1], KANBAN_COLORS[2]]);
    const titles = texts(out);
    expect(titles.map((t) => t.text)).toEqual(['Один', 'Два', 'Три']);
    titles.forEach((t, i) => {
      expect(t.zIndex).toBeGreaterThan(cols[i].zIndex);
      expect(t.x).toBeGreaterThanOrEqual(cols[i].x);
    });
    expect(out[0].zIndex).toBe(10);
  });

  it('refuses invalid settings', () => {
    expect(() => kanbanTemplate({ columns: ['a'], colors: [] }, { x: 0, y: 0 })).toThrow(
      'Количество колонок должно быть от 2 до 6',
    );
  });
});

describe('calendar', () => {
  it('offers ten years from two before the current', () => {
    expect(calendarYears(2025)).toEqual([2023, 2024, 2025, 2026, 2027, 2028, 2029, 2030, 2031, 2032]);
  });

  it('starts weeks on Monday', () => {
    expect(monthGrid(2025, 8)).toEqual({ offset: 0, days: 30 }); // 1 Sep 2025 is a Monday
    expect(monthGrid(2025, 5)).toEqual({ offset: 6, days: 30 }); // 1 Jun 2025 is a Sunday
    expect(monthGrid(2024, 1)).toEqual({ offset: 3, days: 29 }); // 1 Feb 2024 is a Thursday
  });

  it('draws six rows of 200×160 cells with Russian names and numbers the days', () => {
    const out = calendarTemplate({ month: 5, year: 2025 }, new Date(2020, 0, 1), { origin: { x: 0, y: 0 } });
    for (const o of out) expect(canvasObjectSchema.safeParse(o).success).toBe(true);
    const cells = rects(out);
    expect(cells).toHaveLength(42);
    for (const c of cells) expect([c.width, c.height]).toEqual([200, 160]);
    expect(new Set(cells.map((c) => c.x)).size).toBe(7);
    expect(new Set(cells.map((c) => c.y)).size).toBe(6);
    const labels = texts(out).map((t) => t.text);
    expect(labels[0]).toBe('Июнь 2025');
    expect(labels.slice(1, 8)).toEqual([
      'Понедельник',
      'Вторник',
      'Среда',
      'Четверг',
      'Пятница',
      'Суббота',
      'Воскресенье',
    ]);
    expect(labels.slice(8)).toEqual(Array.from({ length: 30 }, (_, i) => String(i + 1)));
    // 1 June 2025 is a Sunday: the seventh cell of the first row.
    const day1 = texts(out).find((t) => t.text === '1')!;
    expect(day1.x).toBeGreaterThanOrEqual(6 * 200);
    expect(cells.filter((c) => c.fill === CALENDAR_COLORS.today)).toHaveLength(0);
  });

  it('highlights today only in the month shown', () => {
    const out = calendarTemplate({ month: 8, year: 2025 }, new Date(2025, 8, 17));
    const highlighted = rects(out).filter((c) => c.fill === CALENDAR_COLORS.today);
    expect(highlighted).toHaveLength(1);
    const label = texts(out).find((t) => t.text === '17')!;
    expect(label.x).toBeGreaterThan(highlighted[0].x);
    expect(label.x).toBeLessThan(highlighted[0].x + 200);
    expect(label.y).toBeGreaterThan(highlighted[0].y);
    expect(label.y).toBeLessThan(highlighted[0].y + 160);
    expect(
      rects(calendarTemplate({ month: 8, year: 2024 }, new Date(2025, 8, 17))).filter(
        (c) => c.fill === CALENDAR_COLORS.today,
      ),
    ).toHaveLength(0);
  });
});
