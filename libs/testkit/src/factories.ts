/**
 * Data factories for tests that talk to a running product (or to auth and boards on their own):
 * each makes one thing through the public API, with defaults a test only overrides where it
 * matters, so a test reads as "a user with a board shared as viewer" rather than as request plumbing.
 */
import { randomUUID } from 'node:crypto';
import { callJson } from './http.ts';

export type LinkRole = 'viewer' | 'guest' | 'editor';

export interface TestAccount {
  id: string;
  name: string;
  email: string;
  password: string;
  token: string;
  refreshToken: string;
}

/** An address nobody else in the run uses. */
export const uniqueEmail = (prefix = 'user'): string => `${prefix}-${randomUUID().slice(0, 12)}@example.com`;

function expectStatus(what: string, r: { status: number; body: unknown }, ok: number[]): void {
  if (!ok.includes(r.status)) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
}

/** Registers a user through POST /api/auth/register at `authBase` (the gateway or auth itself). */
export async function registerUser(
  authBase: string,
  overrides: Partial<Pick<TestAccount, 'name' | 'email' | 'password'>> = {},
): Promise<TestAccount> {
  const account = {
    name: overrides.name ?? 'Тестовый пользователь',
    email: overrides.email ?? uniqueEmail(),
    password: overrides.password ?? 'secret-password-1',
  };
  const r = await callJson(authBase, 'POST', '/api/auth/register', { body: account });
  expectStatus('register', r, [200, 201]);
  return { ...account, id: r.body.user.id, token: r.body.accessToken, refreshToken: r.body.refreshToken };
}

/** Creates a board through POST /api/boards at `boardsBase`; answers its id and title. */
export async function createBoard(
  boardsBase: string,
  owner: { token: string },
  overrides: { title?: string; folder_id?: string | null } = {},
): Promise<{ id: string; title: string }> {
  const title = overrides.title ?? 'Доска';
  const r = await callJson(boardsBase, 'POST', '/api/boards', {
    token: owner.token,
    body: { title, folder_id: overrides.folder_id ?? null },
  });
  expectStatus('create board', r, [201]);
  return { id: r.body.board.id, title };
}

/** Turns link sharing on with the given role links; answers each role's share token. */
export async function shareBoard(
  boardsBase: string,
  owner: { token: string },
  boardId: string,
  roles: LinkRole[],
): Promise<Partial<Record<LinkRole, string>>> {
  const on = await callJson(boardsBase, 'PUT', `/api/boards/${boardId}/sharing`, {
    token: owner.token,
    body: { enabled: true },
  });
  expectStatus('sharing on', on, [200]);
  const r = await callJson(boardsBase, 'POST', `/api/boards/${boardId}/multiple-links`, {
    token: owner.token,
    body: { enabledRoles: roles },
  });
  expectStatus('role links', r, [200]);
  const links: Partial<Record<LinkRole, string>> = {};
  for (const role of roles) links[role] = r.body.board[`${role}_token_hash`];
  return links;
}
