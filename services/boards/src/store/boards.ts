import { createHash } from 'node:crypto';
import type { BoardBackground, BoardListItem, BoardRole, LinkHolderBoardView } from '@wb/contracts';
import type { Queryable } from '@wb/db';
import type { Entitlement } from '../domain/limits.ts';
import { linkRole, type ShareState } from '../domain/roles.ts';

/** A board as read from SQL: the list item's fields, with the tokens under their column names. */
export type BoardRow = Omit<BoardListItem, 'link_role' | 'viewer_token_hash' | 'guest_token_hash' | 'editor_token_hash'> & {
  viewer_token: string | null;
  guest_token: string | null;
  editor_token: string | null;
  /** updated_at in microseconds since the epoch: the exact key for paging (ISO strings drop the microseconds). */
  updated_us: number;
};

/** ISO 8601 in UTC with milliseconds, as Date#toISOString writes it, also inside json_agg. */
const isoTime = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The boards matching `where` (over `boards b`), one page of them, with folder, owner name and
 * tags. The page is cut first (`sel`), then the selected boards' tag ids are looked up through the
 * board_tags primary key and joined to the owner's tags once: a page costs the same whether the
 * account has a hundred boards or ten thousand.
 */
const selectBoards = (where: string, order = '', page = '') => `
  WITH sel AS (SELECT b.* FROM boards b WHERE ${where} ${order} ${page}),
       -- The page's tag ids by primary-key lookups (OFFSET 0 stops the planner from flattening this
       -- into a scan of all board_tags), materialised so the tags table is hashed once, not per board.
       bx AS MATERIALIZED (SELECT s.id AS board_id, x.tag_id FROM sel s
                             JOIN LATERAL (SELECT x.tag_id FROM board_tags x WHERE x.board_id = s.id OFFSET 0) x ON true),
       bt AS (SELECT bx.board_id,
                     json_agg(json_build_object('id', t.id, 'name', t.name, 'color', t.color) ORDER BY t.name, t.id) AS tags
                FROM bx JOIN tags t ON t.id = bx.tag_id
               GROUP BY bx.board_id)
  SELECT b.id, b.title, b.folder_id, b.owner_id, u.name AS owner_name,
         ${isoTime('b.created_at')} AS created_at, ${isoTime('b.updated_at')} AS updated_at,
         (extract(epoch FROM b.updated_at) * 1000000)::bigint AS updated_us,
         f.name AS folder_name, f.color AS folder_color, b.background, b.is_link_sharing_enabled,
         b.viewer_token, b.guest_token, b.editor_token, COALESCE(bt.tags, '[]'::json) AS tags
    FROM sel b
    LEFT JOIN bt ON bt.board_id = b.id
    LEFT JOIN folders f ON f.id = b.folder_id
    LEFT JOIN users u ON u.id = b.owner_id
  ${order}`;

export const shareState = (b: Pick<BoardRow, 'is_link_sharing_enabled' | 'viewer_token' | 'guest_token' | 'editor_token'>): ShareState => ({
  enabled: b.is_link_sharing_enabled,
  viewer: b.viewer_token,
  guest: b.guest_token,
  editor: b.editor_token,
});

/** The list item; tokens only for the owner — everybody else gets the item without the three keys. */
export function toListItem(b: BoardRow): BoardListItem {
  return {
    id: b.id,
    title: b.title,
    folder_id: b.folder_id,
    owner_id: b.owner_id,
    owner_name: b.owner_name,
    created_at: b.created_at,
    updated_at: b.updated_at,
    folder_name: b.folder_name,
    folder_color: b.folder_color,
    background: b.background,
    is_link_sharing_enabled: b.is_link_sharing_enabled,
    link_role: linkRole(shareState(b)),
    viewer_token_hash: b.viewer_token,
    guest_token_hash: b.guest_token,
    editor_token_hash: b.editor_token,
    tags: b.tags,
  };
}

/** A link holder's view (see LinkHolderBoardView): fields are picked, so a new column never leaks by default. */
export function linkHolderView(item: BoardListItem, userRole: BoardRole): LinkHolderBoardView {
  return {
    id: item.id,
    title: item.title,
    background: item.background,
    is_link_sharing_enabled: item.is_link_sharing_enabled,
    link_role: item.link_role,
    userRole,
  };
}

export interface BoardFilter {
  /** undefined = all, null = no folder */
  folderId?: string | null;
  /** lower-cased substring */
  search?: string;
  tagIds?: string[];
  /** Matches nothing (a filter id that cannot exist). */
  none?: boolean;
  /** Page: boards strictly after this key in (updated_at DESC, id DESC) order. */
  after?: PageKey;
  limit?: number;
}

export interface PageKey {
  updatedUs: number;
  id: string;
}

/** Cursors are opaque to clients: base64url of "<updated_at µs>_<id>". */
export function encodeCursor(key: PageKey): string {
  return Buffer.from(`${key.updatedUs}_${key.id}`).toString('base64url');
}

export function decodeCursor(cursor: string): PageKey | null {
  const m = /^(\d{1,17})_([0-9a-f-]{36})$/i.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return m ? { updatedUs: Number(m[1]), id: m[2].toLowerCase() } : null;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The WHERE, ORDER BY and LIMIT over `boards b` for a filter; parameter $1 is the owner. */
function filterSql(ownerId: string, f: BoardFilter) {
  const where = ['b.owner_id = $1'];
  const params: unknown[] = [ownerId];
  const order = 'ORDER BY b.updated_at DESC, b.id DESC';
  // Nothing can match: the other filters' values are not even valid ids, so they stay out of the SQL.
  if (f.none) return { where: `${where[0]} AND false`, order, page: '', params };
  if (f.folderId === null) where.push('b.folder_id IS NULL');
  else if (f.folderId !== undefined) {
    params.push(f.folderId);
    where.push(`b.folder_id = $${params.length}`);
  }
  if (f.search) {
    params.push(`%${escapeLike(f.search)}%`);
    // title_search = search_fold(title), stored (migrations 005, 007): lower case, 'ё' = 'е', trigram-indexed.
    where.push(`b.title_search LIKE search_fold($${params.length})`);
  }
  if (f.tagIds && f.tagIds.length > 0) {
    params.push(f.tagIds);
    where.push(`b.id IN (SELECT bt.board_id FROM board_tags bt WHERE bt.tag_id = ANY($${params.length}::uuid[])
                          GROUP BY bt.board_id HAVING count(*) = ${f.tagIds.length})`);
  }
  if (f.after) {
    params.push(f.after.updatedUs, f.after.id);
    // Integer microseconds added to the epoch: exact, unlike a double-precision to_timestamp().
    where.push(
      `(b.updated_at, b.id) < (timestamptz 'epoch' + $${params.length - 1}::bigint * interval '1 microsecond', $${params.length}::uuid)`,
    );
  }
  let page = '';
  if (f.limit) {
    params.push(Math.trunc(f.limit));
    page = `LIMIT $${params.length}`;
  }
  return { where: where.join(' AND '), order, page, params };
}

export interface BoardPage {
  /** The owner's list version (migration 009) in the snapshot the page was read from. */
  version: string;
  /** The page as JSON text, items shaped exactly as toListItem() shapes them (owner view). */
  boardsJson: string;
  /** Key of the page's last board when another page follows. */
  next: PageKey | null;
  /** All boards of the owner, for the 'current/max' limits. */
  current: number;
  entitlement: Entitlement | null;
}

/**
 * The dashboard's call in one round trip: a page of boards as JSON text built by PostgreSQL (the
 * service passes it on without parsing it), whether another page follows, the owner's board count
 * and plan limits. Separate queries and a parse-and-stringify of every page dominated the CPU of a
 * dashboard load. The item keys must stay those of toListItem(): test/paging.test.ts compares them.
 */
/** Filter combinations are few, and hashing a 3 KB statement on every dashboard load showed in profiles. */
const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `boards_page_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
    if (statementNames.size < 256) statementNames.set(text, name);
  }
  return name;
}

export async function listBoardsPage(db: Queryable, ownerId: string, f: BoardFilter & { limit: number }): Promise<BoardPage> {
  // One row more than the page tells whether another page exists.
  const { where, order, page, params } = filterSql(ownerId, { ...f, limit: f.limit + 1 });
  params.push(f.limit);
  const size = `$${params.length}`;
  // Each item is the stored card (migration 008) completed with the owner's name (every listed board
  // is the caller's), the folder's name and colour, and the stored tags: text concatenation only.
  const text = `WITH page AS (SELECT b.id, b.updated_at, b.folder_id, b.card, b.tags_json FROM boards b WHERE ${where} ${order} ${page}),
       numbered AS (SELECT p.*, row_number() OVER (ORDER BY p.updated_at DESC, p.id DESC) AS n FROM page p),
       owner AS (SELECT COALESCE((SELECT to_json(name)::text FROM users WHERE id = $1), 'null') AS name)
     SELECT COALESCE((SELECT version FROM list_versions WHERE owner_id = $1), 0)::text AS version,
            COALESCE((SELECT boards FROM board_counts WHERE owner_id = $1), 0) AS current,
            (SELECT row_to_json(e) FROM (SELECT max_boards, max_canvas_w, max_canvas_h, export_pdf, limits_enabled
                                           FROM entitlements WHERE user_id = $1) e) AS entitlement,
            COALESCE((SELECT '[' || string_agg(
                        n.card || ',"owner_name":' || o.name
                          || ',"folder_name":' || COALESCE(to_json(f.name)::text, 'null')
                          || ',"folder_color":' || COALESCE(to_json(f.color)::text, 'null')
                          || ',"tags":' || n.tags_json || '}', ',' ORDER BY n.n) || ']'
                        FROM numbered n CROSS JOIN owner o LEFT JOIN folders f ON f.id = n.folder_id
                       WHERE n.n <= ${size}), '[]') AS boards_json,
            (SELECT (extract(epoch FROM updated_at) * 1000000)::bigint FROM numbered
              WHERE n = ${size} AND EXISTS (SELECT 1 FROM numbered WHERE n > ${size})) AS next_us,
            (SELECT id FROM numbered WHERE n = ${size} AND EXISTS (SELECT 1 FROM numbered WHERE n > ${size})) AS next_id`;
  // Named by its text, so each connection parses and plans each filter combination once. Not for
  // searches: a cached generic plan cannot see that a rare pattern suits the trigram index and walks
  // every board of the owner instead (7 ms instead of 0.4 ms for 10,000 boards).
  const name = f.search ? undefined : statementName(text);
  const { rows } = await db.query<{
    version: string;
    current: number;
    entitlement: Entitlement | null;
    boards_json: string;
    next_us: number | null;
    next_id: string | null;
  }>({ name, text, values: params });
  const r = rows[0]!;
  return {
    version: r.version,
    boardsJson: r.boards_json,
    next: r.next_us !== null && r.next_id !== null ? { updatedUs: r.next_us, id: r.next_id } : null,
    current: r.current,
    entitlement: r.entitlement,
  };
}

export async function getBoard(db: Queryable, id: string): Promise<BoardRow | null> {
  const { rows } = await db.query<BoardRow>(selectBoards('b.id = $1'), [id]);
  return rows[0] ?? null;
}

/** The board's core row; `lock` holds it for the rest of the transaction. */
export async function lockBoard(db: Queryable, id: string, lock = true) {
  const { rows } = await db.query<{
    id: string;
    owner_id: string;
    title: string;
    folder_id: string | null;
    background: BoardBackground;
    is_link_sharing_enabled: boolean;
    viewer_token: string | null;
    guest_token: string | null;
    editor_token: string | null;
  }>(
    `SELECT id, owner_id, title, folder_id, background, is_link_sharing_enabled, viewer_token, guest_token, editor_token
       FROM boards WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}
export type LockedBoard = NonNullable<Awaited<ReturnType<typeof lockBoard>>>;

/** From the trigger-kept counter (migration 003), not a count over the owner's boards. */
export async function countBoards(db: Queryable, ownerId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'SELECT COALESCE((SELECT boards FROM board_counts WHERE owner_id = $1), 0) AS n',
    [ownerId],
  );
  return rows[0].n;
}

export async function insertBoard(db: Queryable, b: { ownerId: string; title: string; folderId: string | null }): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    'INSERT INTO boards (owner_id, title, folder_id) VALUES ($1, $2, $3) RETURNING id',
    [b.ownerId, b.title, b.folderId],
  );
  return rows[0].id;
}

export async function updateBoard(db: Queryable, id: string, patch: { title?: string; background?: BoardBackground }) {
  await db.query(
    `UPDATE boards SET title = COALESCE($2, title), background = COALESCE($3, background), updated_at = now() WHERE id = $1`,
    [id, patch.title ?? null, patch.background ?? null],
  );
}

export async function setBoardFolder(db: Queryable, id: string, folderId: string | null) {
  await db.query('UPDATE boards SET folder_id = $2 WHERE id = $1', [id, folderId]);
}

export async function saveShareState(db: Queryable, id: string, s: ShareState) {
  await db.query(
    `UPDATE boards SET is_link_sharing_enabled = $2, viewer_token = $3, guest_token = $4, editor_token = $5 WHERE id = $1`,
    [id, s.enabled, s.viewer, s.guest, s.editor],
  );
}

export async function deleteBoard(db: Queryable, id: string) {
  await db.query('DELETE FROM boards WHERE id = $1', [id]);
}
