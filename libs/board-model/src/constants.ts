/**
 * Canvas constants of spec/board-page.md §9. Russian strings are copied from the spec;
 * test/spec-texts.test.ts checks them against the file. Where the spec only gives a count
 * (palettes, the 32-emoji picker), the values are ours.
 */

export const MIN_ZOOM = 0.1;
export const MAX_ZOOM = 5;
export const WHEEL_ZOOM_FACTOR = 1.1;
export const PINCH_ZOOM_STEPS = [1.02, 1.05, 1.08] as const;

export const CAMERA_SAVE_DEBOUNCE_MS = 500;
export const CAMERA_FORCE_READY_MS = 1000;

export const BRUSH_SIZES = [1, 2, 4, 8, 16] as const;
export const FONT_SIZES = [12, 14, 16, 18, 20, 24, 28, 32] as const;
export const highlighterWidth = (brush: number): number => Math.max(8, brush * 4);
export const HIGHLIGHTER_OPACITY = 0.4;

export const DEFAULT_STICKY_TEXT = 'Новый стикер';
export const DEFAULT_TEXT = 'Новый текст';
export const DEFAULT_STICKY_COLOR = '#FFF2B3';
export const DEFAULT_TEXT_COLOR = '#333333';
export const DEFAULT_FONT_SIZE = 14;
export const DEFAULT_FONT_FAMILY = 'Arial';
export const STICKY_DEFAULTS = {
  width: 120,
  height: 120,
  text: DEFAULT_STICKY_TEXT,
  backgroundColor: DEFAULT_STICKY_COLOR,
  textColor: DEFAULT_TEXT_COLOR,
  fontSize: DEFAULT_FONT_SIZE,
  textAlign: 'left',
} as const;

export const STICKY_COLORS = [
  DEFAULT_STICKY_COLOR,
  '#FFD6A5',
  '#FFADAD',
  '#FFC6FF',
  '#BDB2FF',
  '#A0C4FF',
  '#9BF6FF',
  '#CAFFBF',
  '#E0E0E0',
  '#FFFFFF',
] as const;
export const TEXT_COLORS = [
  DEFAULT_TEXT_COLOR,
  '#000000',
  '#FFFFFF',
  '#E53935',
  '#43A047',
  '#1E88E5',
  '#FDD835',
  '#8E24AA',
  '#00ACC1',
  '#FB8C00',
] as const;
/** Alt+1..8: black, white, light red, green, blue, yellow, violet, cyan. */
export const HOTKEY_COLORS = [
  '#000000',
  '#FFFFFF',
  '#FF6B6B',
  '#4CAF50',
  '#2196F3',
  '#FFEB3B',
  '#9C27B0',
  '#00BCD4',
] as const;

export const TOOLS = [
  'select',
  'hand',
  'pen',
  'highlighter',
  'rectangle',
  'ellipse',
  'line',
  'text',
  'sticky',
  'image',
  'export-select',
  'eraser',
] as const;
export type Tool = (typeof TOOLS)[number];
export const READ_ONLY_TOOLS: readonly Tool[] = ['select', 'hand'];
export const TOOL_HOTKEYS: Readonly<Record<string, Tool>> = {
  '1': 'select',
  '2': 'hand',
  '3': 'pen',
  '4': 'highlighter',
  '5': 'sticky',
  '6': 'image',
  /** As in Excalidraw and tldraw. */
  e: 'eraser',
};

export const DEFAULT_EMOJIS = ['👍', '❤️', '😊', '🔥', '👏', '💯'] as const;
export const QUICK_REACTIONS_COUNT = 6;
export const EMOJI_PICKER = [
  ...DEFAULT_EMOJIS,
  '😂',
  '😍',
  '🤔',
  '😮',
  '😢',
  '😡',
  '🎉',
  '🚀',
  '✅',
  '❌',
  '⭐',
  '💡',
  '👀',
  '🙏',
  '💪',
  '🤝',
  '👌',
  '✨',
  '😎',
  '🥳',
  '😅',
  '🤯',
  '💬',
  '📌',
  '⚡',
  '🏆',
] as const;

export const HISTORY_LIMIT = 50;

export const ARROW_HEAD_SIZE = 15;
export const DEFAULT_ARROW_STROKE_WIDTH = 2;
export const DEFAULT_ARROW_COLOR = '#333333';
export const ARROW_STYLES = ['solid', 'dashed', 'dotted'] as const;
export const DASH_PATTERNS: Readonly<Record<(typeof ARROW_STYLES)[number], readonly number[]>> = {
  solid: [],
  dashed: [10, 5],
  dotted: [2, 3],
};

export const BACKGROUNDS = ['white', 'grid', 'dots', 'lines'] as const;
export const BACKGROUND_SPACING = { grid: 20, dotsThin: 10, dotsThick: 50, lines: 25 } as const;

export const KANBAN_MIN_COLUMNS = 2;
export const KANBAN_MAX_COLUMNS = 6;
export const KANBAN_NAME_MAX = 20;
export const KANBAN_COLUMN_WIDTH = 200;
export const KANBAN_COLUMN_HEIGHT = 400;
export const KANBAN_COLUMN_GAP = 50;
export const KANBAN_DEFAULT_COLUMNS = ['Текущие', 'В работе', 'На проверке', 'Выполнено'] as const;
export const KANBAN_COLORS = [
  '#FFF2B3',
  '#FFE0B2',
  '#FFCDD2',
  '#F8BBD0',
  '#E1BEE7',
  '#D1C4E9',
  '#C5CAE9',
  '#BBDEFB',
  '#B3E5FC',
  '#B2EBF2',
  '#B2DFDB',
  '#C8E6C9',
  '#DCEDC8',
  '#F0F4C3',
  '#FFECB3',
  '#D7CCC8',
  '#F5F5F5',
  '#CFD8DC',
] as const;

export const CALENDAR_CELL_WIDTH = 200;
export const CALENDAR_CELL_HEIGHT = 160;
export const CALENDAR_ROWS = 6;
export const CALENDAR_YEARS_BEFORE = 2;
export const CALENDAR_YEARS_COUNT = 10;
export const TEMPLATES = ['kanban', 'calendar', 'json-import'] as const;

export const STICKER_IMPORT_MAX_ITEMS = 100;
export const STICKER_TEXT_MAX = 4096;
export const STICKER_FILE_MAX_BYTES = 1024 * 1024;
export const STICKER_STATUS_MIN = 0;
export const STICKER_STATUS_MAX = 9;

export const EDITOR_TEXT_MAX = 500;
export const EXPORT_AREA_MIN = 10;
export const RUBBER_BAND_MIN = 2;
export const TRANSFORMER_MIN_SIZE = 5;
export const GROUP_RESIZE_MIN = 10;
export const OBJECT_MIN_SIZE = 5;
export const OBJECT_MIN_SIZE_IN_GROUP = 10;
export const TEXT_FONT_MIN = 8;

export const PARTICIPANT_COLORS = [
  '#E53935',
  '#1E88E5',
  '#43A047',
  '#FB8C00',
  '#8E24AA',
  '#00ACC1',
  '#D81B60',
  '#3949AB',
  '#7CB342',
  '#6D4C41',
] as const;

/** A stable colour per user id from the palette, the same in every browser and on the server (presence). */
export function participantColor(userId: string): string {
  let h = 0;
  for (let i = 0; i < userId.length; i++) h = (h * 31 + userId.charCodeAt(i)) >>> 0;
  return PARTICIPANT_COLORS[h % PARTICIPANT_COLORS.length]!;
}

/**
 * §9 states the rule as "'а' for 2–4, 'ов' for 5 and more", so 21 gives 'участников'
 * (not the grammatical 'участник'); 0 is not covered and gets 'ов'.
 */
export function pluralParticipants(count: number): string {
  if (count === 1) return 'участник';
  if (count >= 2 && count <= 4) return 'участника';
  return 'участников';
}

export const RECONNECT_MAX_ATTEMPTS = 5;
export const RECONNECT_BASE_DELAY_MS = 1000;
export const RECONNECT_FACTOR = 1.5;
export const RECONNECT_MAX_DELAY_MS = 30000;
/** attempt counts from 0. */
export const reconnectDelay = (attempt: number): number =>
  Math.min(RECONNECT_BASE_DELAY_MS * RECONNECT_FACTOR ** attempt, RECONNECT_MAX_DELAY_MS);
export const LOADED_FORCE_MS = 3000;
export const CRITICAL_SYNC_ERRORS = ['Unexpected end of array', 'Invalid state', 'Corrupted data'] as const;
export const SYNC_RESET_DELAY_MS = 1000;
export const CORRUPTED_RELOAD_DELAY_MS = 2000;

export const IMAGE_MAX_FIT_WIDTH = 400;
export const IMAGE_MAX_FIT_HEIGHT = 300;
export const CONNECTED_STICKY_GAP = 40;

export const AUTO_STICKER_FONT_SIZE = 14;
export const AUTO_STICKER_MIN_WIDTH = 120;
export const AUTO_STICKER_MIN_HEIGHT = 80;
export const AUTO_STICKER_MAX_WIDTH = 250;
export const AUTO_STICKER_LONG_MAX_WIDTH = 400;
/** Statuses 0..9 pick the sticky palette in order. */
export const STICKER_STATUS_COLORS = STICKY_COLORS;
export const STICKER_GRID = {
  startX: -700,
  startY: -200,
  maxPerRow: 8,
  maxRowWidth: 1400,
  gapX: 12,
  gapY: 15,
} as const;
