/**
 * Kanban and month-calendar templates (spec/board-page.md §5, §9) as plain objects ready for
 * addObject. Kanban messages are ours: the spec only says "create is disabled otherwise".
 */
import { cleanText } from './cleanText.ts';
import {
  CALENDAR_CELL_HEIGHT,
  CALENDAR_CELL_WIDTH,
  CALENDAR_ROWS,
  CALENDAR_YEARS_BEFORE,
  CALENDAR_YEARS_COUNT,
  DEFAULT_FONT_FAMILY,
  DEFAULT_TEXT_COLOR,
  KANBAN_COLORS,
  KANBAN_COLUMN_GAP,
  KANBAN_COLUMN_HEIGHT,
  KANBAN_COLUMN_WIDTH,
  KANBAN_DEFAULT_COLUMNS,
  KANBAN_MAX_COLUMNS,
  KANBAN_MIN_COLUMNS,
  KANBAN_NAME_MAX,
} from './constants.ts';
import {
  newId,
  rectangleSchema,
  textSchema,
  type CalendarSettings,
  type CanvasObject,
  type KanbanSettings,
  type RectangleObject,
  type TextObject,
} from './objects.ts';

export interface Point {
  x: number;
  y: number;
}

export interface TemplateOptions {
  /** zIndex of the first object; later ones count up so titles lie above their cells. */
  zIndex?: number;
  makeId?: () => string;
}

export const KANBAN_TEXTS = {
  columnCount: `Количество колонок должно быть от ${KANBAN_MIN_COLUMNS} до ${KANBAN_MAX_COLUMNS}`,
  nameEmpty: (n: number | string) => `Название колонки ${n} не может быть пустым`,
  nameTooLong: (n: number | string) =>
    `Название колонки ${n} слишком длинное (максимум ${KANBAN_NAME_MAX} символов)`,
} as const;

export const defaultKanbanSettings = (): KanbanSettings => ({
  columns: [...KANBAN_DEFAULT_COLUMNS],
  colors: KANBAN_DEFAULT_COLUMNS.map((_, i) => KANBAN_COLORS[i]),
});

/** Every problem with the settings, in Russian; an empty list means the template can be created. */
export function validateKanbanSettings(settings: Pick<KanbanSettings, 'columns'>): string[] {
  const errors: string[] = [];
  const { columns } = settings;
  if (columns.length < KANBAN_MIN_COLUMNS || columns.length > KANBAN_MAX_COLUMNS)
    errors.push(KANBAN_TEXTS.columnCount);
  columns.forEach((name, i) => {
    const trimmed = name.trim();
    if (trimmed.length === 0) errors.push(KANBAN_TEXTS.nameEmpty(i + 1));
    else if (trimmed.length > KANBAN_NAME_MAX) errors.push(KANBAN_TEXTS.nameTooLong(i + 1));
  });
  return errors;
}

function counter(options: TemplateOptions) {
  let z = options.zIndex ?? 0;
  const makeId = options.makeId ?? newId;
  return {
    rect: (fields: Omit<RectangleObject, 'id' | 'type' | 'zIndex' | 'rotation'>): RectangleObject =>
      rectangleSchema.parse({ ...fields, id: makeId(), type: 'rectangle', zIndex: z++, rotation: 0 }),
    text: (fields: Omit<TextObject, 'id' | 'type' | 'zIndex' | 'fontFamily'>): TextObject =>
      textSchema.parse({
        ...fields,
        id: makeId(),
        type: 'text',
        zIndex: z++,
        fontFamily: DEFAULT_FONT_FAMILY,
      }),
  };
}

/**
 * Columns left to right from origin (the top-left corner), each a coloured rectangle with its
 * name on top. Throws when validateKanbanSettings finds a problem.
 */
export function kanbanTemplate(
  settings: KanbanSettings,
  origin: Point,
  options: TemplateOptions = {},
): CanvasObject[] {
  const errors = validateKanbanSettings(settings);
  if (errors.length > 0) throw new Error(errors.join('; '));
  const make = counter(options);
  return settings.columns.flatMap((name, i) => {
    const x = origin.x + i * (KANBAN_COLUMN_WIDTH + KANBAN_COLUMN_GAP);
    return [
      make.rect({
        x,
        y: origin.y,
        width: KANBAN_COLUMN_WIDTH,
        height: KANBAN_COLUMN_HEIGHT,
        fill: settings.colors[i] ?? KANBAN_COLORS[i % KANBAN_COLORS.length],
        stroke: '#CCCCCC',
        strokeWidth: 1,
      }),
      make.text({ x: x + 10, y: origin.y + 10, text: cleanText(name.trim()), fontSize: 18, fill: DEFAULT_TEXT_COLOR }),
    ];
  });
}

export const MONTH_NAMES = [
  'Январь',
  'Февраль',
  'Март',
  'Апрель',
  'Май',
  'Июнь',
  'Июль',
  'Август',
  'Сентябрь',
  'Октябрь',
  'Ноябрь',
  'Декабрь',
] as const;
export const WEEKDAY_NAMES = [
  'Понедельник',
  'Вторник',
  'Среда',
  'Четверг',
  'Пятница',
  'Суббота',
  'Воскресенье',
] as const;

export const CALENDAR_COLORS = {
  day: '#FFFFFF',
  outside: '#F5F5F5',
  today: '#E3F2FD',
  border: '#CCCCCC',
  todayBorder: '#2196F3',
} as const;
const TITLE_HEIGHT = 50;
const HEADER_HEIGHT = 40;

/** Years offered in the chooser: ten, starting two before the current one. */
export const calendarYears = (currentYear: number): number[] =>
  Array.from({ length: CALENDAR_YEARS_COUNT }, (_, i) => currentYear - CALENDAR_YEARS_BEFORE + i);

/** Monday-first column (0..6) of the month's first day and the month's length; UTC so the host's zone cannot shift it. */
export function monthGrid(year: number, month: number): { offset: number; days: number } {
  const first = new Date(Date.UTC(year, month, 1)).getUTCDay();
  return { offset: (first + 6) % 7, days: new Date(Date.UTC(year, month + 1, 0)).getUTCDate() };
}

/**
 * A title ('Март 2025'), a row of weekday names, then 6×7 cells of 200×160 from origin
 * (top-left, default 0,0). Days outside the month are grey and unnumbered. `today` is read in
 * the caller's local time and highlighted when it falls in the month shown.
 */
export function calendarTemplate(
  settings: CalendarSettings,
  today: Date,
  options: TemplateOptions & { origin?: Point } = {},
): CanvasObject[] {
  const { month, year } = settings;
  const origin = options.origin ?? { x: 0, y: 0 };
  const make = counter(options);
  const { offset, days } = monthGrid(year, month);
  const todayDay = today.getFullYear() === year && today.getMonth() === month ? today.getDate() : -1;
  const objects: CanvasObject[] = [
    make.text({
      x: origin.x,
      y: origin.y,
      text: `${MONTH_NAMES[month]} ${year}`,
      fontSize: 32,
      fill: DEFAULT_TEXT_COLOR,
    }),
  ];
  WEEKDAY_NAMES.forEach((name, col) => {
    objects.push(
      make.text({
        x: origin.x + col * CALENDAR_CELL_WIDTH + 10,
        y: origin.y + TITLE_HEIGHT + 10,
        text: name,
        fontSize: 16,
        fill: DEFAULT_TEXT_COLOR,
      }),
    );
  });
  const top = origin.y + TITLE_HEIGHT + HEADER_HEIGHT;
  for (let cell = 0; cell < CALENDAR_ROWS * 7; cell++) {
    const day = cell - offset + 1;
    const inMonth = day >= 1 && day <= days;
    const isToday = inMonth && day === todayDay;
    const x = origin.x + (cell % 7) * CALENDAR_CELL_WIDTH;
    const y = top + Math.floor(cell / 7) * CALENDAR_CELL_HEIGHT;
    objects.push(
      make.rect({
        x,
        y,
        width: CALENDAR_CELL_WIDTH,
        height: CALENDAR_CELL_HEIGHT,
        fill: isToday ? CALENDAR_COLORS.today : inMonth ? CALENDAR_COLORS.day : CALENDAR_COLORS.outside,
        stroke: isToday ? CALENDAR_COLORS.todayBorder : CALENDAR_COLORS.border,
        strokeWidth: isToday ? 3 : 1,
      }),
    );
    if (inMonth) {
      objects.push(
        make.text({ x: x + 10, y: y + 10, text: String(day), fontSize: 18, fill: DEFAULT_TEXT_COLOR }),
      );
    }
  }
  return objects;
}
