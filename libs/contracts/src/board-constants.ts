/**
 * Plain constants of boards, folders and tags (no zod): the SPA reads them through
 * `@wb/contracts/constants` so a page without a form does not carry zod in its bundle.
 */
import { LIMITS } from './texts.ts';

export const BOARD_BACKGROUNDS = ['white', 'grid', 'dots', 'lines'] as const;

/** The link roles, weakest first (the order the access dialog lists them in). */
export const SHARE_ROLES = ['viewer', 'guest', 'editor'] as const;

export const BOARD_LIMITS = {
  titleMax: 200,
  folderNameMax: 100,
  searchMax: 200,
  tagsPerBoardMax: 100,
  /** Board list paging: the dashboard loads more as the user scrolls. */
  pageDefault: 50,
  pageMax: 500,
  /** Zoom range of the board page (board-page.md §9). */
  scaleMin: 0.1,
  scaleMax: 5,
  /** Camera coordinates far beyond any canvas are a client bug, not a position. */
  positionAbsMax: 1e9,
} as const;

export const BOARD_TEXTS = {
  titleRequired: 'Название доски не может быть пустым',
  titleTooLong: `Название доски должно содержать не более ${BOARD_LIMITS.titleMax} символов`,
  folderNameRequired: 'Название папки не может быть пустым',
  badPageLimit: `Размер страницы должен быть от 1 до ${BOARD_LIMITS.pageMax}`,
  badCursor: 'Некорректный курсор страницы',
  folderNameTooLong: `Название папки должно содержать не более ${BOARD_LIMITS.folderNameMax} символов`,
  tagNameRequired: 'Название тега не может быть пустым',
  tagNameTooLong: `Название тега должно содержать не более ${LIMITS.tagNameMax} символов`,
  colorInvalid: 'Цвет должен быть в формате #RRGGBB',
  nothingToUpdate: 'Нет данных для обновления',
  positionInvalid: 'Позиция должна быть before или after',
  cameraInvalid: 'Некорректная позиция камеры',
  scaleInvalid: `Масштаб должен быть от ${BOARD_LIMITS.scaleMin} до ${BOARD_LIMITS.scaleMax}`,
  rolesInvalid: 'Роли ссылок: viewer, guest, editor',
  enabledInvalid: 'Поле enabled должно быть true или false',
  searchTooLong: `Поисковый запрос должен содержать не более ${BOARD_LIMITS.searchMax} символов`,
  duplicateIds: 'Идентификаторы не должны повторяться',
} as const;

/** #RGB or #RRGGBB; the service stores the upper-case #RRGGBB form. */
export const HEX_COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
