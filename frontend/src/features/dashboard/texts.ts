/**
 * Russian texts of the dashboard. `SPEC` holds texts copied from shared/spec/product.md (§2, §8);
 * a unit test checks each of them occurs in the spec verbatim. `OWN` holds texts the spec leaves open.
 */
export const SPEC = {
  titleAll: 'Все доски',
  titleNoFolder: 'Доски без папки',
  searchPlaceholder: 'Поиск досок...',
  sharedMark: 'Общий доступ включён',
  emptyNone: 'Пока нет досок',
  emptyFiltered: 'Досок не найдено',
  showAll: 'Показать все',
  noFolder: 'Без папки',
  upgrade: 'Обновить план',

  roleViewer: 'Просмотр с реакциями',
  roleGuest: 'Гостевой просмотр (без авторизации)',
  roleEditor: 'Редактирование',

  // Errors (§8 fallbacks)
  loadBoardsError: 'Ошибка загрузки досок',
  createBoardError: 'Ошибка создания доски',
  updateBoardError: 'Ошибка обновления доски',
  deleteBoardError: 'Ошибка удаления доски',
  sharingError: 'Ошибка настройки доступа',
  linksChangeError: 'Ошибка при изменении настроек доступа',
  linkRotateError: 'Ошибка при обновлении ссылки',
  copyError: 'Не удалось скопировать ссылку',
  loadFoldersError: 'Ошибка загрузки папок',
  createFolderError: 'Ошибка создания папки',
  updateFolderError: 'Ошибка обновления папки',
  deleteFolderError: 'Ошибка удаления папки',
  moveBoardError: 'Ошибка перемещения доски',
  moveFolderError: 'Ошибка перемещения папки',
  reorderFoldersError: 'Ошибка изменения порядка папок',
  createTagError: 'Ошибка создания тега',
  updateTagError: 'Ошибка обновления тега',
  deleteTagError: 'Ошибка удаления тега',
  boardTagsError: 'Ошибка обновления тегов доски',
  cyclicMove: 'Нельзя переместить папку в её дочернюю папку',
  boardLimit: 'Достигнут лимит досок. Обновите план для создания новых досок.',

  // Successes (§8)
  boardCreated: 'Доска создана',
  boardUpdated: 'Доска обновлена',
  boardDeleted: 'Доска удалена',
  folderCreated: 'Папка создана',
  folderUpdated: 'Папка обновлена',
  folderDeleted: 'Папка удалена',
  folderMoved: 'Папка перемещена',
  tagCreated: 'Тег создан',
  tagUpdated: 'Тег обновлен',
  tagDeleted: 'Тег удален',
  boardTagsUpdated: 'Теги доски обновлены',
  linkCopied: 'Ссылка скопирована!',

  // Confirmations (§8)
  deleteFolderConfirm: 'Доски из папки будут перемещены в корень',
  deleteTagConfirm: 'Он будет удален со всех досок',
} as const;

/** Texts the spec does not give (labels, headings, the link on/off messages, the board delete question). */
export const OWN = {
  newBoard: 'Новая доска',
  createBoardTitle: 'Создать доску',
  boardTitleLabel: 'Название доски',
  boardTitlePlaceholder: 'Например, Ретроспектива спринта',
  create: 'Создать',
  save: 'Сохранить',
  cancel: 'Отмена',
  delete: 'Удалить',
  close: 'Закрыть',
  renameBoardTitle: 'Переименовать доску',
  open: 'Открыть',
  openNewWindow: 'Открыть в новом окне',
  rename: 'Переименовать',
  access: 'Настроить доступ',
  tags: 'Теги',
  moveToRoot: 'Переместить в корень',
  boardActions: 'Действия с доской',
  dragBoard: (title: string) => `Перетащить доску «${title}»`,
  dragBoardHint: 'Перетащите в папку',
  dragFolder: (name: string) => `Перетащить папку «${name}»`,
  updated: 'Обновлено',
  deleteBoardTitle: 'Удалить доску?',
  deleteBoardConfirm: (title: string) => `Удалить доску «${title}»? Это действие нельзя отменить.`,
  emptyNoneHint: 'Создайте первую доску, чтобы начать работу с командой.',
  emptyFilteredHint: 'Попробуйте изменить запрос или сбросить фильтры.',
  resetFilters: 'Сбросить фильтры',
  loadMore: 'Показать ещё',
  retry: 'Повторить',
  emptyFolder: 'В этой папке пока нет досок',
  emptyFolderHint: 'Создайте доску здесь или перетащите сюда существующую.',
  deleteFolderSubfolders: (names: readonly string[], parent: string | null) =>
    `${names.length === 1 ? 'Подпапка' : 'Подпапки'} ${names.map((n) => `«${n}»`).join(', ')} ${
      names.length === 1 ? 'будет перемещена' : 'будут перемещены'
    } ${parent ? `в папку «${parent}»` : 'на верхний уровень'}.`,
  boardsCount: (n: number) => `${n} ${plural(n, 'доска', 'доски', 'досок')}`,

  folders: 'Папки',
  newFolder: 'Новая папка',
  createFolderTitle: 'Создать папку',
  createSubfolderTitle: 'Создать подпапку',
  renameFolderTitle: 'Переименовать папку',
  folderNameLabel: 'Название папки',
  folderField: 'Папка',
  inFolder: 'В папке',
  folderColorLabel: 'Цвет',
  createSubfolder: 'Создать подпапку',
  deleteFolderTitle: (name: string) => `Удалить папку «${name}»?`,
  folderActions: 'Действия с папкой',
  expand: 'Развернуть',
  collapse: 'Свернуть',
  noFolders: 'Папок пока нет',
  showFolders: 'Папки и фильтры',

  a11yInstructions:
    'Чтобы взять элемент, нажмите пробел. Стрелками выберите папку, пробелом или Enter положите, Escape — отмена.',
  a11yPicked: 'Взято:',
  a11yNoTarget: 'Не над папкой',
  a11yDropped: 'Отпущено',
  a11yCancelled: 'Перетаскивание отменено',

  tagFilter: 'Фильтр по тегам',
  reset: 'Сбросить',
  noTags: 'Тегов пока нет',

  accessTitle: 'Настройки доступа',
  linkSharing: 'Доступ по ссылке',
  linkSharingHint: 'Любой, у кого есть ссылка, сможет открыть доску с выбранной ролью.',
  linkSharingOffHint: 'Включите доступ, чтобы поделиться доской по ссылке.',
  copy: 'Копировать',
  rotate: 'Обновить ссылки',
  rotateHint: 'Старые ссылки перестанут работать.',
  rotateConfirmTitle: 'Обновить ссылки?',
  rotateConfirm: 'Все текущие ссылки на эту доску перестанут работать. Новые ссылки нужно будет отправить заново.',
  roleViewerHint: 'Может смотреть доску и ставить реакции',
  roleGuestHint: 'Может смотреть доску без входа в аккаунт',
  roleEditorHint: 'Может изменять содержимое доски',
  sharingOn: 'Доступ по ссылке включён',
  sharingOff: 'Доступ по ссылке выключен',
  roleOn: (label: string) => `Ссылка «${label}» включена`,
  roleDisabled: (label: string) => `Ссылка «${label}» выключена`,
  linksRotated: 'Ссылки обновлены',

  tagsTitle: 'Теги доски',
  newTag: 'Новый тег',
  tagNamePlaceholder: 'Название тега',
  addTag: 'Добавить',
  customColor: 'Свой цвет',
  editTag: 'Изменить тег',
  deleteTag: 'Удалить тег',
  deleteTagTitle: (name: string) => `Удалить тег «${name}»?`,
} as const;

export function plural(n: number, one: string, few: string, many: string): string {
  const m10 = n % 10;
  const m100 = n % 100;
  if (m10 === 1 && m100 !== 11) return one;
  if (m10 >= 2 && m10 <= 4 && (m100 < 12 || m100 > 14)) return few;
  return many;
}

export const ROLE_LABELS = {
  viewer: SPEC.roleViewer,
  guest: SPEC.roleGuest,
  editor: SPEC.roleEditor,
} as const;
