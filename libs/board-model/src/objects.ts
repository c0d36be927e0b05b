/**
 * Shapes of everything stored in a board document (spec/board-page.md §3). The bounds are
 * there because any client can write to the document: a hostile one must not be able to
 * store NaN, megabyte strings or coordinates that break rendering for everyone else.
 */
import { z } from 'zod';
import {
  ARROW_STYLES,
  BACKGROUNDS,
  DEFAULT_ARROW_COLOR,
  DEFAULT_ARROW_STROKE_WIDTH,
  DEFAULT_FONT_FAMILY,
  EDITOR_TEXT_MAX,
  KANBAN_MAX_COLUMNS,
  KANBAN_MIN_COLUMNS,
  KANBAN_NAME_MAX,
  MAX_ZOOM,
  MIN_ZOOM,
  STICKER_STATUS_MAX,
  STICKER_STATUS_MIN,
  STICKER_TEXT_MAX,
  STICKY_DEFAULTS,
  TEXT_FONT_MIN,
} from './constants.ts';
import { isSingleEmoji } from './emoji.ts';

export const OBJECT_LIMITS = {
  coord: 10_000_000,
  size: 100_000,
  strokeWidth: 200,
  fontSize: 400,
  rotation: 3600,
  zIndex: 1e15,
  idLength: 64,
  colorLength: 64,
  fontFamilyLength: 100,
  /** A path of 10 000 points; pen strokes are far shorter. */
  pointsLength: 20_000,
  /** Roughly a 1.5 MB image as a base64 data URL. */
  imageSrcLength: 2 * 1024 * 1024,
  reactionsPerObject: 500,
  emojiLength: 16,
  userNameLength: 100,
  favoriteEmojis: 100,
} as const;

const coord = z.number().min(-OBJECT_LIMITS.coord).max(OBJECT_LIMITS.coord);
const size = z.number().min(0).max(OBJECT_LIMITS.size);
const strokeWidth = z.number().min(0).max(OBJECT_LIMITS.strokeWidth);
export const idSchema = z
  .string()
  .min(1)
  .max(OBJECT_LIMITS.idLength)
  .regex(/^[\w.:-]+$/);
/** Named colours, hex, rgb()/hsl(): nothing that could close an attribute in an SVG export. */
export const colorSchema = z
  .string()
  .min(1)
  .max(OBJECT_LIMITS.colorLength)
  .regex(/^[#a-zA-Z0-9(),.%\s-]+$/);
const fontFamily = z
  .string()
  .max(OBJECT_LIMITS.fontFamilyLength)
  .regex(/^[\p{L}\p{N}\s,'"-]+$/u);
const fontSize = z.number().min(TEXT_FONT_MIN).max(OBJECT_LIMITS.fontSize);
const points = z
  .array(coord)
  .min(4)
  .max(OBJECT_LIMITS.pointsLength)
  .refine((p) => p.length % 2 === 0, 'points must hold x,y pairs');

const common = {
  id: idSchema,
  zIndex: z.number().min(-OBJECT_LIMITS.zIndex).max(OBJECT_LIMITS.zIndex).default(0),
  /** Set only while the author is still drawing; other clients may skip such objects. */
  temporary: z.boolean().optional(),
  /** Members of one group share it (tools/groups.ts); a group of one member is no group. */
  groupId: idSchema.optional(),
  /** Locked objects are not moved, resized, edited or erased until unlocked (any editor may toggle it). */
  locked: z.boolean().optional(),
};

const emojiSchema = z
  .string()
  .min(1)
  .max(OBJECT_LIMITS.emojiLength)
  .regex(/^[\p{Extended_Pictographic}\p{Emoji_Modifier}\p{Regional_Indicator}\u200d\ufe0f\u20e3]+$/u)
  .refine(isSingleEmoji, 'Реакция должна быть одним эмодзи');

export const reactionSchema = z.object({
  emoji: emojiSchema,
  userId: idSchema,
  userName: z.string().max(OBJECT_LIMITS.userNameLength),
});
const reactions = z.array(reactionSchema).max(OBJECT_LIMITS.reactionsPerObject).default([]);

export const rectangleSchema = z.object({
  ...common,
  type: z.literal('rectangle'),
  x: coord,
  y: coord,
  width: size,
  height: size,
  fill: colorSchema,
  stroke: colorSchema,
  strokeWidth,
  rotation: z.number().min(-OBJECT_LIMITS.rotation).max(OBJECT_LIMITS.rotation).default(0),
});

/** x, y is the centre, as in Konva. */
export const ellipseSchema = z.object({
  ...common,
  type: z.literal('ellipse'),
  x: coord,
  y: coord,
  radiusX: size,
  radiusY: size,
  fill: colorSchema,
  stroke: colorSchema,
  strokeWidth,
});

/** The spec lists only points; a line still needs a colour and width to be drawn. */
export const lineSchema = z.object({
  ...common,
  type: z.literal('line'),
  points: z.array(coord).length(4),
  stroke: colorSchema.default('#000000'),
  strokeWidth: strokeWidth.default(2),
});

export const textSchema = z.object({
  ...common,
  type: z.literal('text'),
  x: coord,
  y: coord,
  text: z.string().max(EDITOR_TEXT_MAX),
  fontSize,
  fill: colorSchema,
  fontFamily: fontFamily.default(DEFAULT_FONT_FAMILY),
});

const strokeFields = {
  points,
  stroke: colorSchema,
  strokeWidth,
  tension: z.number().min(0).max(1).default(0),
};
export const pathSchema = z.object({ ...common, type: z.literal('path'), ...strokeFields });
export const highlighterSchema = z.object({ ...common, type: z.literal('highlighter'), ...strokeFields });

/** Imported stickers may carry up to 4096 characters; the editor itself stops at 500. */
export const stickySchema = z.object({
  ...common,
  type: z.literal('sticky'),
  x: coord,
  y: coord,
  width: size,
  height: size,
  text: z.string().max(STICKER_TEXT_MAX),
  backgroundColor: colorSchema,
  textColor: colorSchema,
  fontSize,
  textAlign: z.enum(['left', 'center', 'right']).default(STICKY_DEFAULTS.textAlign),
  reactions,
});

export const imageSrcSchema = z
  .string()
  .max(OBJECT_LIMITS.imageSrcLength)
  .refine(
    (s) => /^data:image\/[\w.+-]+;base64,[A-Za-z0-9+/=]*$/.test(s) || /^(https?:\/\/|\/)[^\s"'<>]*$/.test(s),
    'image src must be an image data URL or an http(s) or same-origin URL',
  );

export const imageSchema = z.object({
  ...common,
  type: z.literal('image'),
  x: coord,
  y: coord,
  width: size,
  height: size,
  src: imageSrcSchema,
  reactions,
});

export const canvasObjectSchema = z.discriminatedUnion('type', [
  rectangleSchema,
  ellipseSchema,
  lineSchema,
  textSchema,
  pathSchema,
  highlighterSchema,
  stickySchema,
  imageSchema,
]);

export type Reaction = z.infer<typeof reactionSchema>;
export type RectangleObject = z.infer<typeof rectangleSchema>;
export type EllipseObject = z.infer<typeof ellipseSchema>;
export type LineObject = z.infer<typeof lineSchema>;
export type TextObject = z.infer<typeof textSchema>;
export type PathObject = z.infer<typeof pathSchema>;
export type HighlighterObject = z.infer<typeof highlighterSchema>;
export type StickyObject = z.infer<typeof stickySchema>;
export type ImageObject = z.infer<typeof imageSchema>;
export type CanvasObject = z.infer<typeof canvasObjectSchema>;
/** What callers may pass: defaulted fields (zIndex, rotation, reactions...) may be left out. */
export type CanvasObjectInput = z.input<typeof canvasObjectSchema>;
export type ObjectType = CanvasObject['type'];
export const OBJECT_TYPES = canvasObjectSchema.options.map((o) => o.shape.type.value) as ObjectType[];

/** Objects that carry reactions. */
export const REACTABLE_TYPES: readonly ObjectType[] = ['sticky', 'image'];
/** Freehand strokes have no stable anchor, so arrows never attach to them (§9). */
export const ARROW_END_TYPES: readonly ObjectType[] = [
  'rectangle',
  'ellipse',
  'line',
  'text',
  'sticky',
  'image',
];

export const arrowSchema = z
  .object({
    id: idSchema,
    fromId: idSchema,
    toId: idSchema,
    style: z.enum(ARROW_STYLES).default('solid'),
    color: colorSchema.default(DEFAULT_ARROW_COLOR),
    strokeWidth: z.number().min(0.5).max(50).default(DEFAULT_ARROW_STROKE_WIDTH),
  })
  .refine((a) => a.fromId !== a.toId, 'an arrow needs two different ends');
export type Arrow = z.infer<typeof arrowSchema>;
export type ArrowInput = z.input<typeof arrowSchema>;

export const boardRoleSchema = z.enum(['owner', 'editor', 'viewer', 'guest']);
export type BoardRole = z.infer<typeof boardRoleSchema>;
export const backgroundSchema = z.enum(BACKGROUNDS);
export type Background = z.infer<typeof backgroundSchema>;

export const canvasLimitsSchema = z.object({
  max_width: z.number().positive().max(OBJECT_LIMITS.coord),
  max_height: z.number().positive().max(OBJECT_LIMITS.coord),
  unlimited: z.boolean(),
  background: backgroundSchema.optional(),
});
export type CanvasLimits = z.infer<typeof canvasLimitsSchema>;

export const cameraPositionSchema = z.object({
  position_x: z
    .number()
    .min(-OBJECT_LIMITS.coord * MAX_ZOOM)
    .max(OBJECT_LIMITS.coord * MAX_ZOOM),
  position_y: z
    .number()
    .min(-OBJECT_LIMITS.coord * MAX_ZOOM)
    .max(OBJECT_LIMITS.coord * MAX_ZOOM),
  scale_x: z.number().min(MIN_ZOOM).max(MAX_ZOOM),
  scale_y: z.number().min(MIN_ZOOM).max(MAX_ZOOM),
  /** Present: saved per device as a view (position = the board point at the viewport's centre); absent: the old stage offset. */
  device: z.enum(['phone', 'tablet', 'desktop']).optional(),
});
export type CameraPosition = z.infer<typeof cameraPositionSchema>;

export const awarenessStateSchema = z.object({
  user: z.object({ id: idSchema, name: z.string().max(OBJECT_LIMITS.userNameLength), color: colorSchema }),
  cursor: z.object({ x: coord, y: coord }).nullable().optional(),
  selection: z.array(idSchema).max(10_000).optional(),
});
export type AwarenessState = z.infer<typeof awarenessStateSchema>;

export const snapshotStatusSchema = z.enum(['empty', 'small', 'normal']);
export type SnapshotStatus = z.infer<typeof snapshotStatusSchema>;
export const snapshotSchema = z.object({
  id: z.string().min(1).max(100),
  version: z.int().nonnegative(),
  created_at: z.string(),
  blob_size: z.int().nonnegative(),
  status: snapshotStatusSchema,
});
export type Snapshot = z.infer<typeof snapshotSchema>;
export const snapshotStatsSchema = z.object({
  total: z.int().nonnegative(),
  content_count: z.int().nonnegative(),
  empty_count: z.int().nonnegative(),
  max_size: z.int().nonnegative(),
});
export type SnapshotStats = z.infer<typeof snapshotStatsSchema>;

export const favoriteEmojisSchema = z.array(emojiSchema).max(OBJECT_LIMITS.favoriteEmojis);

/** Shape only; templates.ts has the rules with the Russian messages shown in the dialog. */
export const kanbanSettingsSchema = z.object({
  columns: z
    .array(z.string().trim().min(1).max(KANBAN_NAME_MAX))
    .min(KANBAN_MIN_COLUMNS)
    .max(KANBAN_MAX_COLUMNS),
  colors: z.array(colorSchema).max(KANBAN_MAX_COLUMNS),
});
export type KanbanSettings = z.infer<typeof kanbanSettingsSchema>;

export const calendarSettingsSchema = z.object({
  month: z.int().min(0).max(11),
  year: z.int().min(1900).max(2200),
});
export type CalendarSettings = z.infer<typeof calendarSettingsSchema>;

/** An item of the JSON import after parsing (stickerImport.ts turns a numeric-string status into a number). */
export const jsonStickerSchema = z.object({
  text: z.string().max(STICKER_TEXT_MAX),
  type: z.literal('sticky').optional(),
  status: z.int().min(STICKER_STATUS_MIN).max(STICKER_STATUS_MAX).optional(),
});
export type JsonSticker = z.infer<typeof jsonStickerSchema>;

export function newId(): string {
  return globalThis.crypto.randomUUID();
}

/** A sticky with the §9 defaults; used by the editor, connected stickers and the JSON import. */
export function createSticky(
  fields: Partial<Omit<StickyObject, 'type'>> & { x: number; y: number },
): StickyObject {
  return stickySchema.parse({ ...STICKY_DEFAULTS, id: newId(), reactions: [], ...fields, type: 'sticky' });
}
