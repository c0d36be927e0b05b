/**
 * Every public route that takes input, with the @wb/contracts schema it parses and a valid sample,
 * for the tests that feed each input field hostile values (input-fuzz.test.ts) and check the
 * gateway's caching headers (gateway-policies.test.ts). `unclaimedRequestSchemas` fails a test when
 * a request schema exported by @wb/contracts is in no route here, so a new route cannot escape.
 */
import { z } from 'zod';
import * as contracts from '@wb/contracts';

export type Caller = 'visitor' | 'user' | 'admin';

/** What the samples refer to, made by the test before it runs (see fillPath). */
export interface Fixture {
  board: string;
  folder: string;
  folder2: string;
  tag: string;
  plan: string;
  variant: string;
  subscription: string;
  order: string;
  user: string;
}

export interface RouteCase {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** `:name` placeholders are keys of Fixture. */
  path: string;
  caller: Caller;
  /** The request schema from @wb/contracts (body, or query string for GET), undefined where the service keeps its own. */
  schema?: z.ZodType;
  /** Where the input goes. */
  in: 'body' | 'query';
  /** A valid input (it must parse with `schema`): each string field of it is replaced by a hostile value in turn. */
  sample: (f: Fixture) => Record<string, unknown>;
}

const PASSWORD = 'Secret-123';

export const ROUTES: RouteCase[] = [
  // auth
  { method: 'POST', path: '/api/auth/register', caller: 'visitor', in: 'body', schema: contracts.RegisterRequest, sample: () => ({ email: 'fuzz-new@example.com', password: PASSWORD, name: 'Новый' }) },
  { method: 'POST', path: '/api/auth/login', caller: 'visitor', in: 'body', schema: contracts.LoginRequest, sample: () => ({ email: 'fuzz-user@example.com', password: PASSWORD }) },
  { method: 'POST', path: '/api/auth/refresh', caller: 'visitor', in: 'body', schema: contracts.RefreshRequest, sample: () => ({ refreshToken: 'x'.repeat(40) }) },
  { method: 'POST', path: '/api/auth/logout', caller: 'user', in: 'body', schema: contracts.LogoutRequest, sample: () => ({ refreshToken: 'x'.repeat(40) }) },
  { method: 'PATCH', path: '/api/auth/profile', caller: 'user', in: 'body', schema: contracts.UpdateProfileRequest, sample: () => ({ name: 'Имя', email: 'fuzz-user@example.com', currentPassword: PASSWORD }) },
  { method: 'PATCH', path: '/api/auth/change-email', caller: 'user', in: 'body', schema: contracts.ChangeEmailRequest, sample: () => ({ email: 'fuzz-other@example.com', currentPassword: PASSWORD }) },
  { method: 'PATCH', path: '/api/auth/change-password', caller: 'user', in: 'body', schema: contracts.ChangePasswordRequest, sample: () => ({ currentPassword: PASSWORD, newPassword: 'Secret-456' }) },
  { method: 'PATCH', path: '/api/auth/settings', caller: 'user', in: 'body', schema: contracts.UpdateSettingsRequest, sample: () => ({ settings: { theme: 'dark' } }) },
  { method: 'POST', path: '/api/auth/password-reset/request', caller: 'visitor', in: 'body', schema: contracts.PasswordResetRequest, sample: () => ({ email: 'fuzz-user@example.com' }) },
  { method: 'POST', path: '/api/auth/password-reset/confirm', caller: 'visitor', in: 'body', schema: contracts.PasswordResetConfirmRequest, sample: () => ({ token: 'x'.repeat(43), password: 'Secret-456' }) },
  { method: 'POST', path: '/api/auth/verify-email', caller: 'visitor', in: 'body', schema: contracts.VerifyEmailRequest, sample: () => ({ token: 'x'.repeat(43) }) },
  { method: 'DELETE', path: '/api/auth/account', caller: 'user', in: 'body', schema: contracts.DeleteAccountRequest, sample: () => ({ password: PASSWORD }) },
  { method: 'PUT', path: '/api/auth/user/favorite-emojis', caller: 'user', in: 'body', schema: contracts.FavoriteEmojisRequest, sample: () => ({ favorites: ['👍'] }) },
  // boards
  { method: 'GET', path: '/api/boards', caller: 'user', in: 'query', schema: contracts.ListBoardsQuery, sample: (f) => ({ search: 'Доска', folder_id: f.folder, tags: f.tag, cursor: 'x' }) },
  { method: 'POST', path: '/api/boards', caller: 'user', in: 'body', schema: contracts.CreateBoardRequest, sample: (f) => ({ title: 'Доска', folder_id: f.folder }) },
  { method: 'PATCH', path: '/api/boards/:board', caller: 'user', in: 'body', schema: contracts.UpdateBoardRequest, sample: () => ({ title: 'Доска', background: 'dots' }) },
  { method: 'POST', path: '/api/boards/:board/link', caller: 'user', in: 'body', schema: contracts.LinkRequest, sample: () => ({ enabled: true }) },
  { method: 'PUT', path: '/api/boards/:board/sharing', caller: 'user', in: 'body', schema: contracts.SharingRequest, sample: () => ({ enabled: true }) },
  { method: 'POST', path: '/api/boards/:board/multiple-links', caller: 'user', in: 'body', schema: contracts.MultipleLinksRequest, sample: () => ({ enabledRoles: ['viewer'] }) },
  { method: 'PUT', path: '/api/boards/:board/camera', caller: 'user', in: 'body', schema: contracts.CameraPosition, sample: () => ({ position_x: 0, position_y: 0, scale_x: 1, scale_y: 1 }) },
  { method: 'GET', path: '/api/boards/:board/camera', caller: 'user', in: 'query', schema: contracts.CameraQuery, sample: () => ({ device: 'phone' }) },
  // folders
  { method: 'POST', path: '/api/folders', caller: 'user', in: 'body', schema: contracts.CreateFolderRequest, sample: (f) => ({ name: 'Папка', parent_id: f.folder, color: '#3B82F6' }) },
  { method: 'PATCH', path: '/api/folders/:folder', caller: 'user', in: 'body', schema: contracts.UpdateFolderRequest, sample: (f) => ({ name: 'Папка', parent_id: f.folder2, color: '#3B82F6' }) },
  { method: 'POST', path: '/api/folders/move-board', caller: 'user', in: 'body', schema: contracts.MoveBoardRequest, sample: (f) => ({ board_id: f.board, folder_id: f.folder }) },
  { method: 'POST', path: '/api/folders/move-to-position', caller: 'user', in: 'body', schema: contracts.MoveToPositionRequest, sample: (f) => ({ folder_id: f.folder, parent_id: f.folder2, target_folder_id: f.folder2, position: 'after' }) },
  { method: 'POST', path: '/api/folders/reorder', caller: 'user', in: 'body', schema: contracts.ReorderFoldersRequest, sample: (f) => ({ parent_id: f.folder2, folder_ids: [f.folder] }) },
  // tags
  { method: 'POST', path: '/api/tags', caller: 'user', in: 'body', schema: contracts.CreateTagRequest, sample: () => ({ name: 'тег', color: '#EF4444' }) },
  { method: 'PUT', path: '/api/tags/:tag', caller: 'user', in: 'body', schema: contracts.UpdateTagRequest, sample: () => ({ name: 'тег', color: '#EF4444' }) },
  { method: 'PUT', path: '/api/tags/board/:board', caller: 'user', in: 'body', schema: contracts.SetBoardTagsRequest, sample: (f) => ({ tagIds: [f.tag] }) },
  // billing
  { method: 'POST', path: '/api/billing/checkout', caller: 'user', in: 'body', schema: contracts.CheckoutInput, sample: (f) => ({ plan_id: f.plan, variant_id: f.variant }) },
  { method: 'POST', path: '/api/billing/test-checkout/:order', caller: 'user', in: 'body', schema: contracts.TestCheckoutInput, sample: () => ({ outcome: 'decline' }) },
  // billing administration
  { method: 'POST', path: '/api/admin/plans', caller: 'admin', in: 'body', schema: contracts.PlanInput, sample: () => planSample() },
  { method: 'PUT', path: '/api/admin/plans/:plan', caller: 'admin', in: 'body', schema: contracts.PlanInput, sample: (f) => ({ ...planSample(), name: 'Pro', is_active: true, variants: [{ ...planSample().variants[0], id: f.variant }] }) },
  { method: 'GET', path: '/api/admin/subscriptions', caller: 'admin', in: 'query', sample: () => ({ search: 'fuzz' }) },
  { method: 'POST', path: '/api/admin/subscriptions', caller: 'admin', in: 'body', schema: contracts.SubscriptionCreateInput, sample: (f) => ({ user_id: f.user, plan_id: f.plan, days: 30 }) },
  { method: 'PUT', path: '/api/admin/subscriptions/:subscription', caller: 'admin', in: 'body', schema: contracts.SubscriptionUpdateInput, sample: (f) => ({ plan_id: f.plan, expires_at: '2030-01-01T00:00:00Z', status: 'active' }) },
  { method: 'PUT', path: '/api/admin/subscriptions/:subscription/extend', caller: 'admin', in: 'body', schema: contracts.SubscriptionExtendInput, sample: () => ({ days: 1 }) },
  { method: 'PUT', path: '/api/admin/config', caller: 'admin', in: 'body', schema: contracts.SystemConfigInput, sample: () => ({ grace_days: 3 }) },
  // user administration (auth). DELETE takes only its path: the path-parameter values below reach it.
  { method: 'GET', path: '/api/admin/users', caller: 'admin', in: 'query', schema: contracts.AdminSearchQuery, sample: () => ({ search: 'fuzz' }) },
  { method: 'PUT', path: '/api/admin/users/:user', caller: 'admin', in: 'body', schema: contracts.AdminUserUpdateInput, sample: () => ({ name: 'Проверяющий', email: 'fuzz-user@example.com' }) },
  { method: 'DELETE', path: '/api/admin/users/:user', caller: 'admin', in: 'body', sample: () => ({}) },
  // export and realtime keep their request schemas in the service (no contract yet): fields come from the sample
  ...(['png', 'svg', 'pdf'] as const).map(
    (format): RouteCase => ({ method: 'POST', path: `/api/export/${format}`, caller: 'user', in: 'body', sample: (f) => ({ boardId: f.board, area: { x: 0, y: 0, width: 200, height: 200 } }) }),
  ),
  { method: 'POST', path: '/yjs/force-save', caller: 'user', in: 'body', sample: (f) => ({ boardId: f.board }) },
  { method: 'POST', path: '/yjs/reactions', caller: 'user', in: 'body', sample: (f) => ({ boardId: f.board, objectId: 'o1', emoji: '👍' }) },
  { method: 'POST', path: '/yjs/images/:board/urls', caller: 'user', in: 'body', sample: () => ({ hashes: ['a'.repeat(64)] }) },
  // Reads whose only input is the path: their parameters get the hostile values.
  ...(['/api/boards/:board', '/api/boards/:board/members', '/api/boards/:board/camera', '/api/tags/board/:board', '/api/billing/orders/:order', '/api/billing/payments/:order/receipt'] as const).map(
    (path): RouteCase => ({ method: 'GET', path, caller: 'user', in: 'query', sample: () => ({}) }),
  ),
];

function planSample() {
  return {
    name: 'Fuzz',
    description: 'Тариф для проверки',
    is_active: false,
    limits: { max_board_count: 5, max_canvas_extent_w: 1000, max_canvas_extent_h: 1000, export_pdf_enabled: false },
    variants: [{ days: 30, price_minor: 100, currency: 'RUB' as const, is_active: true }],
  };
}

/**
 * Exported object schemas that are no public request: answers and their parts, token claims, event
 * envelopes, internal calls between services. Anything else exported must be some route's input above.
 */
const NOT_PUBLIC_INPUT: Record<string, string> = {
  AccessClaims: 'claims of a verified token',
  EventEnvelope: 'events between services',
  PublicUser: 'part of auth answers',
  BoardListItem: 'part of board answers',
  BoardLimits: 'part of the board list answer',
  CanvasLimits: 'part of board answers',
  FolderNode: 'part of folder answers',
  BoardAccessRequest: 'POST /internal/boards/:id/access (internal only)',
  ReceiptInput: "billing → export's /internal/receipts (internal only)",
  AutoRenewForm: "the SPA's auto-renew switch; the calls it makes (cancel/resume-auto-renew) take no body",
  // The admin answers of spec §3 (libs/contracts/src/admin.ts): what the admin calls answer with.
  AdminStats: 'GET /admin/stats answer',
  TodayStats: 'part of the activity answer',
  ActivityItem: 'part of the activity answer',
  SystemData: 'GET /admin/system answer',
  ContainerInfo: 'part of the docker answer',
  DockerData: 'GET /admin/docker answer',
  UpdateStatus: 'GET /admin/update/status answer',
  AdminUser: 'part of the admin user list answer',
};
const ANSWER_NAME = /(Answer|View)$/;

const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;

/** An exported schema taking an object as input (a transform's input counts: PlanInput is `object → transform`). */
function takesObject(s: z.ZodType): boolean {
  const d = defOf(s);
  if (d.type === 'object') return true;
  if (d.type === 'pipe') return takesObject(d.in as z.ZodType);
  return false;
}

/** Every schema reachable from `root` (by identity), so parts of a route's schema count as covered. */
function reachable(root: z.ZodType, into: Set<unknown>): void {
  if (into.has(root)) return;
  into.add(root);
  for (const child of children(root)) reachable(child.schema, into);
}

/** Names of exported request-like schemas that no route of ROUTES parses (empty when every one is claimed). */
export function unclaimedRequestSchemas(): string[] {
  const covered = new Set<unknown>();
  for (const r of ROUTES) if (r.schema) reachable(r.schema, covered);
  return Object.entries(contracts)
    .filter(([name, v]) => v instanceof z.ZodType && takesObject(v) && !ANSWER_NAME.test(name) && !(name in NOT_PUBLIC_INPUT))
    .filter(([, v]) => !covered.has(v))
    .map(([name]) => name);
}

/** A path into a JSON value; RECORD_KEY stands for "the key of a record entry". */
export const RECORD_KEY = Symbol('record key');
export type FieldPath = Array<string | number | typeof RECORD_KEY>;

type Child = { schema: z.ZodType; step?: string | number };

/** zod 4's introspection: the schemas inside `s`, with the step into the value each one validates. */
function children(s: z.ZodType): Child[] {
  const d = defOf(s);
  switch (d.type) {
    case 'object':
      return Object.entries(d.shape as Record<string, z.ZodType>).map(([k, v]) => ({ schema: v, step: k }));
    case 'array':
      return [{ schema: d.element as z.ZodType, step: 0 }];
    case 'record':
      return [{ schema: d.valueType as z.ZodType, step: 'k' }];
    case 'pipe':
      // What the client sends is the pipe's input; its output is the transform's.
      return [{ schema: d.in as z.ZodType }];
    case 'union':
      return (d.options as z.ZodType[]).map((o) => ({ schema: o }));
    case 'intersection':
      return [{ schema: d.left as z.ZodType }, { schema: d.right as z.ZodType }];
    case 'tuple':
      return (d.items as z.ZodType[]).map((item, i) => ({ schema: item, step: i }));
    case 'lazy':
      return [{ schema: (d.getter as () => z.ZodType)() }];
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
    case 'success':
      return [{ schema: d.innerType as z.ZodType }];
    default:
      return [];
  }
}

/** Types whose values a client sends as JSON strings (enums and string literals too: a hostile value is still a string there). */
const STRING_TYPES = new Set(['string', 'enum', 'literal', 'template_literal', 'unknown', 'any']);

/** Every place in an input of `schema` that takes a string, nested objects, arrays and records included. */
export function stringFields(schema: z.ZodType, path: FieldPath = [], out: FieldPath[] = [], depth = 0): FieldPath[] {
  const d = defOf(schema);
  if (depth > 20) return out;
  if (STRING_TYPES.has(d.type)) {
    if (!out.some((p) => samePath(p, path))) out.push(path);
    return out;
  }
  if (d.type === 'record' && defOf(d.keyType as z.ZodType).type === 'string') {
    const keyPath: FieldPath = [...path, RECORD_KEY];
    if (!out.some((p) => samePath(p, keyPath))) out.push(keyPath);
  }
  for (const c of children(schema)) stringFields(c.schema, c.step === undefined ? path : [...path, c.step], out, depth + 1);
  return out;
}

/** String fields of a plain value (routes whose schema is not in @wb/contracts). */
export function sampleStringFields(value: unknown, path: FieldPath = [], out: FieldPath[] = []): FieldPath[] {
  if (typeof value === 'string') out.push(path);
  else if (Array.isArray(value)) value.forEach((v, i) => sampleStringFields(v, [...path, i], out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) sampleStringFields(v, [...path, k], out);
  return out;
}

const samePath = (a: FieldPath, b: FieldPath) => a.length === b.length && a.every((s, i) => s === b[i]);

export const showPath = (p: FieldPath) => p.map((s) => (s === RECORD_KEY ? '<key>' : String(s))).join('.') || '<root>';

/** A copy of `sample` with `value` at `path`, creating the containers on the way (an optional object the sample left out). */
export function withValueAt(sample: Record<string, unknown>, path: FieldPath, value: string): Record<string, unknown> {
  const copy = structuredClone(sample);
  let node: Record<string | number, unknown> = copy;
  for (const [i, step] of path.entries()) {
    const last = i === path.length - 1;
    if (step === RECORD_KEY) {
      // A record entry whose key is the hostile string.
      node[value] = 'v';
      return copy;
    }
    if (last) {
      node[step] = value;
      break;
    }
    const next = path[i + 1];
    if (node[step] === undefined || node[step] === null || typeof node[step] !== 'object') node[step] = typeof next === 'number' ? [] : {};
    node = node[step] as Record<string | number, unknown>;
  }
  return copy;
}

/** The route's path with its placeholders filled from the fixture. */
export const fillPath = (path: string, f: Fixture) => path.replace(/:(\w+)/g, (_m, name: string) => f[name as keyof Fixture]);
