import { z } from 'zod';
import { LIMITS } from './texts.ts';
import { BOARD_BACKGROUNDS, BOARD_LIMITS, BOARD_TEXTS, HEX_COLOR } from './board-constants.ts';
import { ShareRole } from './events.ts';

/**
 * Boards, folders, tags and sharing: request schemas and answer shapes of the boards service
 * (`/api/boards*`, `/api/folders*`, `/api/tags*`). Ids are plain strings here on purpose: an id
 * that is not UUID-shaped is treated by the service as an id that does not exist (404 of its kind),
 * not as a validation error, so the schemas leave that check to it.
 */

export const BoardBackground = z.enum(BOARD_BACKGROUNDS, { error: 'Недопустимый фон доски' });
export type BoardBackground = z.infer<typeof BoardBackground>;

/** Characters as a person counts them (and PostgreSQL's varchar): an emoji is one, not two UTF-16 units. */
const characters = (v: string): number => {
  let n = 0;
  for (const _ of v) n++;
  return n;
};

const trimmedName = (required: string, tooLong: string, max: number) =>
  z
    .string({ error: required })
    .transform((v) => v.trim())
    .refine((v) => v.length > 0, { message: required })
    .refine((v) => v.length <= max || characters(v) <= max, { message: tooLong });

export const boardTitle = trimmedName(BOARD_TEXTS.titleRequired, BOARD_TEXTS.titleTooLong, BOARD_LIMITS.titleMax);
export const folderName = trimmedName(
  BOARD_TEXTS.folderNameRequired,
  BOARD_TEXTS.folderNameTooLong,
  BOARD_LIMITS.folderNameMax,
);
export const tagName = trimmedName(BOARD_TEXTS.tagNameRequired, BOARD_TEXTS.tagNameTooLong, LIMITS.tagNameMax);
export const hexColor = z.string({ error: BOARD_TEXTS.colorInvalid }).regex(HEX_COLOR, { message: BOARD_TEXTS.colorInvalid });

const idRef = z.string().max(64);
const nullableIdRef = idRef.nullable().optional();
const enabledFlag = z.boolean({ error: BOARD_TEXTS.enabledInvalid });

// ---- boards ----

export const ListBoardsQuery = z.object({
  /** A folder id, 'none' for boards without a folder, absent for all boards. */
  folder_id: z.string().max(64).optional(),
  search: z.string().max(BOARD_LIMITS.searchMax, { message: BOARD_TEXTS.searchTooLong }).optional(),
  /** Comma-separated tag ids: boards carrying all of them. */
  tags: z.string().max(4000).optional(),
  /** Page size (not in the spec: an account with thousands of boards must not load them all at once). */
  limit: z.coerce
    .number({ error: BOARD_TEXTS.badPageLimit })
    .int({ message: BOARD_TEXTS.badPageLimit })
    .min(1, { message: BOARD_TEXTS.badPageLimit })
    .max(BOARD_LIMITS.pageMax, { message: BOARD_TEXTS.badPageLimit })
    .default(BOARD_LIMITS.pageDefault),
  /** The previous page's nextCursor. */
  cursor: z.string().max(200).optional(),
});

export const CreateBoardRequest = z.object({ title: boardTitle, folder_id: nullableIdRef });
export type CreateBoardRequest = z.infer<typeof CreateBoardRequest>;

export const UpdateBoardRequest = z
  .object({ title: boardTitle.optional(), background: BoardBackground.optional() })
  .refine((v) => v.title !== undefined || v.background !== undefined, { message: BOARD_TEXTS.nothingToUpdate });
export type UpdateBoardRequest = z.infer<typeof UpdateBoardRequest>;

export const LinkRequest = z.object({ enabled: enabledFlag });
export const SharingRequest = z.object({ enabled: enabledFlag });
export const MultipleLinksRequest = z.object({
  enabledRoles: z
    .array(ShareRole, { error: BOARD_TEXTS.rolesInvalid })
    .max(3, { message: BOARD_TEXTS.rolesInvalid })
    .refine((r) => new Set(r).size === r.length, { message: BOARD_TEXTS.rolesInvalid }),
  rotate: z.boolean({ error: BOARD_TEXTS.rolesInvalid }).optional(),
});
export type MultipleLinksRequest = z.infer<typeof MultipleLinksRequest>;

const coordinate = z
  .number({ error: BOARD_TEXTS.cameraInvalid })
  .refine((v) => Number.isFinite(v) && Math.abs(v) <= BOARD_LIMITS.positionAbsMax, { message: BOARD_TEXTS.cameraInvalid });
const scale = z
  .number({ error: BOARD_TEXTS.scaleInvalid })
  .refine((v) => Number.isFinite(v) && v >= BOARD_LIMITS.scaleMin && v <= BOARD_LIMITS.scaleMax, {
    message: BOARD_TEXTS.scaleInvalid,
  });
/** The device classes a camera is remembered for (a phone and a desktop each keep their own view). */
export const CameraDevice = z.enum(['phone', 'tablet', 'desktop'], { error: BOARD_TEXTS.cameraInvalid });
export type CameraDevice = z.infer<typeof CameraDevice>;
/**
 * With `device` the position is the board point at the centre of the viewport (board coordinates,
 * so any window size shows the same place) and the row is that device's; without it, the old
 * format: the stage offset in screen pixels, one row per user (still read and converted).
 */
export const CameraPosition = z.object({
  position_x: coordinate,
  position_y: coordinate,
  scale_x: scale,
  scale_y: scale,
  device: CameraDevice.optional(),
});
export type CameraPosition = z.infer<typeof CameraPosition>;
/** GET camera: ?device= reads that device's view (or the old-format row when it has none). */
export const CameraQuery = z.object({ device: CameraDevice.optional() });

// ---- folders ----

export const CreateFolderRequest = z.object({ name: folderName, parent_id: nullableIdRef, color: hexColor.optional() });
export const UpdateFolderRequest = z
  .object({ name: folderName.optional(), parent_id: nullableIdRef, color: hexColor.optional() })
  .refine((v) => v.name !== undefined || v.parent_id !== undefined || v.color !== undefined, {
    message: BOARD_TEXTS.nothingToUpdate,
  });
export const MoveBoardRequest = z.object({ board_id: idRef, folder_id: idRef.nullable() });
export const MoveToPositionRequest = z.object({
  folder_id: idRef,
  parent_id: idRef.nullable(),
  target_folder_id: idRef,
  position: z.enum(['before', 'after'], { error: BOARD_TEXTS.positionInvalid }),
});
export const ReorderFoldersRequest = z.object({
  parent_id: idRef.nullable(),
  folder_ids: z
    .array(idRef)
    .max(10_000)
    .refine((ids) => new Set(ids).size === ids.length, { message: BOARD_TEXTS.duplicateIds }),
});

// ---- tags ----

export const CreateTagRequest = z.object({ name: tagName, color: hexColor.optional() });
export const UpdateTagRequest = z
  .object({ name: tagName.optional(), color: hexColor.optional() })
  .refine((v) => v.name !== undefined || v.color !== undefined, { message: BOARD_TEXTS.nothingToUpdate });
export const SetBoardTagsRequest = z.object({
  tagIds: z.array(idRef).max(BOARD_LIMITS.tagsPerBoardMax),
});

// ---- internal ----

export const BoardAccessRequest = z.object({
  userId: z.string().max(64).optional(),
  shareToken: z.string().max(256).optional(),
});
