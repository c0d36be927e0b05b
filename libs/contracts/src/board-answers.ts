import { z } from 'zod';
import { BoardBackground } from './boards.ts';
import { BoardRole, ShareRole } from './events.ts';

/**
 * Answers of the boards service that the SPA and other services read, as schemas: the types both
 * sides use are inferred from them, so a field is declared once. The service does not parse its
 * own answers on the way out (the board list is written as JSON text by PostgreSQL); tests parse
 * live answers with these schemas so the declaration and the wire cannot drift apart.
 */

export const TagView = z.object({ id: z.string(), name: z.string(), color: z.string() });
export type TagView = z.infer<typeof TagView>;

/** A board as the owner's dashboard sees it. The *_token_hash fields carry the share tokens themselves (spec naming). */
export const BoardListItem = z.object({
  id: z.string(),
  title: z.string(),
  folder_id: z.string().nullable(),
  owner_id: z.string(),
  owner_name: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  folder_name: z.string().nullable(),
  folder_color: z.string().nullable(),
  background: BoardBackground,
  is_link_sharing_enabled: z.boolean(),
  /** The strongest role an anonymous link holder gets right now; null when no link works. */
  link_role: ShareRole.nullable(),
  viewer_token_hash: z.string().nullable(),
  guest_token_hash: z.string().nullable(),
  editor_token_hash: z.string().nullable(),
  tags: z.array(TagView),
});
export type BoardListItem = z.infer<typeof BoardListItem>;

/**
 * What GET /api/boards/{id} gives anyone but the owner (link holders, signed-in or not): what the
 * board page draws, nothing of the owner's dashboard (owner id, folder, tags, share tokens).
 * Strict, so a test parsing a live answer fails when a new field leaks to link holders.
 */
export const LinkHolderBoardView = z.strictObject({
  id: z.string(),
  title: z.string(),
  background: BoardBackground,
  is_link_sharing_enabled: z.boolean(),
  link_role: ShareRole.nullable(),
  userRole: BoardRole,
});
export type LinkHolderBoardView = z.infer<typeof LinkHolderBoardView>;

/** The owner gets the full dashboard item; everyone else only the LinkHolderBoardView fields. */
export const PublicBoardView = BoardListItem.partial().extend(LinkHolderBoardView.shape);
export type PublicBoardView = z.infer<typeof PublicBoardView>;

export const BoardLimits = z.object({
  current: z.number().int(),
  /** -1 = unlimited */
  max: z.number().int(),
  canCreate: z.boolean(),
});
export type BoardLimits = z.infer<typeof BoardLimits>;

export const CanvasLimits = z.object({
  max_width: z.number().nullable(),
  max_height: z.number().nullable(),
  unlimited: z.boolean(),
  background: BoardBackground,
});
export type CanvasLimits = z.infer<typeof CanvasLimits>;

/** GET /api/boards: one page of the owner's boards (keyset paging is ours, not the spec's). */
export const BoardsListAnswer = z.object({
  boards: z.array(BoardListItem),
  limits: BoardLimits,
  /** The next page's cursor, null on the last page. */
  nextCursor: z.string().nullable(),
});
export type BoardsListAnswer = z.infer<typeof BoardsListAnswer>;

/** Every owner's change of a board (create, rename, background, sharing, move) answers the new item. */
export const BoardAnswer = z.object({ board: BoardListItem });
export type BoardAnswer = z.infer<typeof BoardAnswer>;

/** GET /api/boards/{id}: what the board page opens with. */
export const BoardPageAnswer = z.object({
  board: PublicBoardView,
  canvasLimits: CanvasLimits,
  currentUser: z.object({ id: z.string(), name: z.string() }).nullable(),
});
export type BoardPageAnswer = z.infer<typeof BoardPageAnswer>;

export const FolderNode = z.object({
  id: z.string(),
  name: z.string(),
  parent_id: z.string().nullable(),
  color: z.string(),
  sort_order: z.number().int(),
  board_count: z.number().int(),
  // A getter is zod 4's way to a recursive schema; the annotation lets TypeScript infer it.
  get children(): z.ZodArray<typeof FolderNode> {
    return z.array(FolderNode);
  },
});
export type FolderNode = z.infer<typeof FolderNode>;

export const FoldersAnswer = z.object({ folders: z.array(FolderNode) });
export type FoldersAnswer = z.infer<typeof FoldersAnswer>;
export const FolderAnswer = z.object({ folder: FolderNode });
export type FolderAnswer = z.infer<typeof FolderAnswer>;

export const TagsAnswer = z.object({ tags: z.array(TagView) });
export type TagsAnswer = z.infer<typeof TagsAnswer>;
export const TagAnswer = z.object({ tag: TagView });
export type TagAnswer = z.infer<typeof TagAnswer>;

// ---- internal ----

export const BoardAccessRole = z.union([BoardRole, z.literal('none')]);
export type BoardAccessRole = z.infer<typeof BoardAccessRole>;

/** POST /internal/boards/{id}/access: realtime's and export's admission question. */
export const BoardAccessAnswer = z.object({
  role: BoardAccessRole,
  /** background: what the export draws under the objects (absent from older answers). */
  board: z
    .object({ id: z.string(), owner_id: z.string(), title: z.string(), background: z.string().optional() })
    .nullable(),
});
export type BoardAccessAnswer = z.infer<typeof BoardAccessAnswer>;
