/**
 * Russian texts of the board page. `SPEC` is copied from shared/spec/board-page.md (a unit test checks
 * each occurs there verbatim); `OWN` holds texts the spec leaves open.
 */
import { VIEW_MODE } from '../canvas/texts.ts';

/** Bytes as MB with three decimals, the unit of the snapshot list (§5). */
export const toMegabytes = (bytes: number): string => (bytes / (1024 * 1024)).toFixed(3);

export const SPEC = {
  loadingBoard: 'Загрузка доски...',
  connecting: 'Подключение к доске...',
  loadingObjects: 'Загрузка объектов...',
  settingUpView: 'Настройка вида...',
  accessDenied: 'Доступ запрещен',
  defaultTitle: 'Доска',
  sharedAccess: 'Общий доступ',
  synced: 'Синхронизировано',
  guestLabel: 'Гостевой просмотр (без реакций)',
  viewerLabel: 'Просмотр с реакциями',
  editorLabel: 'Редактирование',
  viewMode: VIEW_MODE,
  loadingPresence: 'Загрузка...',
  alreadySaved: 'Изменения уже сохранены!',
  saveError: 'Ошибка сохранения',
  backgroundChanged: 'Фон доски изменен',
  backgroundError: 'Ошибка изменения фона',
  linkCopied: 'Ссылка скопирована!',
  copyError: 'Не удалось скопировать ссылку',
  linkChangeError: 'Ошибка при изменении ссылки',
  linkRotateError: 'Ошибка при обновлении ссылки',
  sharingOn: 'Общий доступ включен',
  sharingError: 'Ошибка при изменении настроек',
  snapshotsError: 'Ошибка загрузки снапшотов',
  snapshotsCleanError: 'Ошибка очистки снапшотов',
  recovered: 'Данные восстановлены! Перезагрузите страницу',
  recoverError: 'Ошибка восстановления данных',
  selectExportArea: 'Выделите область для экспорта PNG',
  pngExported: 'PNG экспортирован успешно!',
  pngExportError: 'Ошибка при экспорте PNG',
  exportError: 'Ошибка экспорта',
} as const;

/** Spec: 'Сохранено N объектов!' */
export const savedText = (n: number): string => `Сохранено ${n} объектов!`;
/** Spec: 'Ссылка {role} создана' / 'удалена' / 'обновлена'. */
export const linkText = (role: string, verb: 'создана' | 'удалена' | 'обновлена'): string =>
  `Ссылка ${role} ${verb}`;
/** Spec: 'Общий доступ включен' / 'выключен'. */
export const sharingText = (on: boolean): string => (on ? SPEC.sharingOn : SPEC.sharingOn.replace('включен', 'выключен'));

/** Texts the spec does not give. */
export const OWN = {
  backToBoards: 'К доскам',
  redirectNotice: 'Через 2 секунды вы будете перенаправлены к списку досок.',
  redirectToLoginNotice: 'Через 2 секунды откроется страница входа.',
  toLogin: 'Войти',
  participants: 'Участники',
  you: 'вы',
  objects: 'Объектов',
  access: 'Настроить доступ',
  save: 'Сохранить',
  background: 'Фон доски',
  backgrounds: { white: 'Белый', grid: 'Сетка', dots: 'Точки', lines: 'Линии' },
  snapshots: 'Снапшоты',
  snapshotVersion: 'Версия',
  snapshotDate: 'Дата',
  snapshotSize: 'Размер, МБ',
  snapshotStatus: 'Статус',
  snapshotStatuses: { empty: 'пустой', small: 'маленький', normal: 'обычный' },
  /** The largest size in MB, the size column's unit (§5: snapshot sizes shown in MB), not raw bytes. */
  snapshotStats: (s: { total: number; content_count: number; empty_count: number; max_size: number }) =>
    `Всего: ${s.total}, с содержимым: ${s.content_count}, пустых: ${s.empty_count}, максимум: ${toMegabytes(s.max_size)} МБ`,
  deleteEmpty: 'Удалить пустые',
  noSnapshots: 'Снапшотов пока нет',
  close: 'Закрыть',
  limit: 'Холст',
  reconnecting: 'Переподключение...',
  offline: 'Нет соединения',
  retry: 'Повторить',
  guest: 'Гость',
  react: 'Реакция',
  moreEmojis: 'Все эмодзи',
  all: 'Все',
  favourites: 'Избранные',
  addFavourite: 'В избранное',
  removeFavourite: 'Убрать из избранного',
  reactionRefused: 'Реакция не сохранена',
  loadingSnapshots: 'Загрузка снапшотов...',
  loadFailed: 'Не удалось загрузить доску',
} as const;
