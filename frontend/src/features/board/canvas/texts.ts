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
