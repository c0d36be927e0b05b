/**
 * Canvas UI texts. Spec texts (board-page.md §5) are re-exported from libs/board-model, where a test
 * checks them against the spec; the labels below are ours (the spec does not name the buttons).
 */
import type { Tool } from '@wb/board-model';

export const CLEAR_CONFIRM_TEXT = 'Очистить всю доску? Это действие нельзя отменить.';
export const editorCounter = (n: number, max: number) => `${n}/${max} символов`;

export const TOOL_LABELS: Record<Tool, string> = {
  select: 'Выбор (1)',
  hand: 'Рука (2)',
  pen: 'Карандаш (3)',
  highlighter: 'Маркер (4)',
  rectangle: 'Прямоугольник',
  ellipse: 'Эллипс',
  line: 'Линия',
  text: 'Текст',
  sticky: 'Стикер (5)',
  image: 'Изображение (6)',
  'export-select': 'Область экспорта',
  eraser: 'Ластик (E)',
};

/** Spec §6: what a viewer's context menu on a selected sticky or image shows. */
export const VIEW_MODE = 'Режим просмотра';

export const CONTEXT_LABELS = {
  edit: 'Редактировать',
  copy: 'Копировать',
  duplicate: 'Дублировать',
  delete: 'Удалить',
  copyFailed: 'Не удалось скопировать',
} as const;

export const LABELS = {
  toolbar: 'Инструменты',
  undo: 'Отменить (Ctrl+Z)',
  redo: 'Повторить (Ctrl+Y)',
  templates: 'Шаблоны',
  clear: 'Очистить доску',
  clearTitle: 'Очистить доску',
  clearConfirm: 'Очистить',
  arrow: 'Стрелка от выделенного объекта',
  arrowHint: 'Выберите объект, к которому провести стрелку',
  arrowStyles: { solid: 'Сплошная', dashed: 'Пунктир', dotted: 'Точки' },
  brush: 'Толщина',
  fontSize: 'Размер шрифта',
  color: 'Цвет',
  stickyColor: 'Цвет стикера',
  fill: 'Заливка',
  noFill: 'Без заливки',
  save: 'Сохранить',
  cancel: 'Отмена',
  editorTitle: 'Текст',
  /** Ours (the spec has no text): a keystroke or paste that would pass the model's limit is refused whole. */
  textLimit: (max: number) => `Текст не может быть длиннее ${max} символов`,
  connect: { top: 'Связанный стикер сверху', bottom: 'Связанный стикер снизу', left: 'Связанный стикер слева', right: 'Связанный стикер справа' },
  imageNotImage: 'Можно вставить только изображение',
  imageTooLarge: 'Изображение слишком большое',
  imageUploadFailed: 'Не удалось загрузить изображение',
  /** Ours (the spec has no text): an outside image could not be fetched to upload it to the board. */
  imageFetchFailed: 'Не удалось загрузить изображение по ссылке. Сохраните его и вставьте файлом',
  /** Ours: pasted objects held images this board does not store (another board's, an outside address). */
  imageForeignSkipped: 'Изображения с другой доски не вставлены: вставьте их заново файлом',
} as const;

export const TEMPLATE_LABELS = {
  title: 'Шаблоны',
  kanban: 'Канбан',
  calendar: 'Календарь',
  json: 'Импорт JSON',
  column: (n: number) => `Колонка ${n}`,
  addColumn: 'Добавить колонку',
  deleteColumn: (n: number) => `Удалить колонку ${n}`,
  columnColor: (n: number, color: string) => `Цвет колонки ${n}: ${color}`,
  create: 'Создать',
  month: 'Месяц',
  year: 'Год',
  jsonText: 'JSON со стикерами',
  jsonFile: 'Загрузить файл',
  import: 'Импортировать',
} as const;

/** Ours (issue 35 item 5; the spec is silent): align and distribute a multi-selection. */
export const ARRANGE_LABELS = {
  bar: 'Выравнивание',
  left: 'Выровнять по левому краю',
  centre: 'Выровнять по центру',
  right: 'Выровнять по правому краю',
  top: 'Выровнять по верхнему краю',
  middle: 'Выровнять по середине',
  bottom: 'Выровнять по нижнему краю',
  horizontal: 'Распределить по горизонтали',
  vertical: 'Распределить по вертикали',
} as const;

/** Ours (issue 35 item 5; the spec is silent): why a paste put nothing on the board (decisions.md). */
export const PASTE_TEXTS = {
  empty: 'Нечего вставить: буфер обмена пуст',
  blank: 'Нечего вставить: в буфере обмена только пробелы',
  tooLong: (n: number, max: number) => `Текст не вставлен: в нём ${n} символов, а в текст на доске помещается не больше ${max}`,
  file: (name: string) => `Файл «${name}» не вставлен: на доску можно вставить только изображения и текст`,
  html: 'Не удалось вставить: в буфере обмена только оформленный текст (HTML) без обычного текста',
  other: 'Не удалось вставить: на доску можно вставить объекты доски, изображения и текст',
} as const;

/** Ours (issue 35 item 6; the spec only says nothing is created outside a bounded canvas, §5): why a press there does nothing. */
export const OUTSIDE_BOARD_TEXT = 'Здесь доска заканчивается: рисовать и добавлять объекты можно только внутри её границ';

/** Ours (issue 35 items 5, 8): navigation commands and the toolbar's overflow menu. */
export const NAV_LABELS = {
  more: 'Ещё инструменты',
  zoomToFit: 'Показать всё (Shift+1)',
  zoomToSelection: 'Показать выделенное (Shift+2)',
} as const;

/** Structure tools (issue 35 item 5; ours, the spec is silent): context menu items with their hotkeys. */
export const STRUCTURE_LABELS = {
  forward: 'Переместить вперёд (Ctrl+])',
  backward: 'Переместить назад (Ctrl+[)',
  front: 'На передний план (Ctrl+Shift+])',
  back: 'На задний план (Ctrl+Shift+[)',
  group: 'Сгруппировать (Ctrl+G)',
  ungroup: 'Разгруппировать (Ctrl+Shift+G)',
  lock: 'Заблокировать',
  unlock: 'Разблокировать',
  locked: 'Заблокировано',
} as const;
