/**
 * What the canvas browser tests (canvas.test.ts, canvas-camera.test.ts) share: a board of a fresh
 * account, opening it until the engine has drawn, adding objects through the page's `window.__wbCanvas`
 * hook, and a default sticky.
 */
import type { Page } from 'playwright-core';
import { newAccount, registerViaApi, type TestAccount } from './harness.ts';

export type Obj = { id: string; type: string; [k: string]: unknown };

export interface Tokens {
  accessToken: string;
  refreshToken: string;
}

export interface Board {
  id: string;
  tokens: Tokens;
}

/** A board of a fresh account (a free plan allows only a few boards per account). */
export async function newBoardOf(productUrl: string, prefix: string, title: string): Promise<Board> {
  const account: TestAccount = newAccount(prefix);
  await registerViaApi(productUrl, account);
  const login = await fetch(`${productUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: account.email, password: account.password }),
  });
  const tokens = (await login.json()) as Tokens;
  const res = await fetch(`${productUrl}/api/boards`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${tokens.accessToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ title, folder_id: null }),
  });
  if (!res.ok) throw new Error(`create board: ${res.status} ${await res.text()}`);
  return { id: ((await res.json()) as { board: { id: string } }).board.id, tokens };
}

/** Signs in with the board's tokens, opens its page until the canvas has drawn; answers the stage's top-left corner. */
export async function openCanvas(page: Page, board: Board): Promise<{ x: number; y: number }> {
  const { tokens } = board;
  await page.goto('/pricing');
  await page.evaluate(
    ([a, r]) => {
      localStorage.setItem('accessToken', a);
      localStorage.setItem('refreshToken', r);
    },
    [tokens.accessToken, tokens.refreshToken] as const,
  );
  await page.goto(`/board/${board.id}`);
  // Generous: the shared test machines are often busy.
  await page.waitForSelector('[data-testid="canvas-stage"] canvas', { state: 'attached', timeout: 45_000 });
  await page.waitForSelector('[data-testid="board-setting-up"]', { state: 'detached', timeout: 45_000 });
  await page.waitForFunction(() => window.__wbCanvas?.stats.firstDrawAt != null, undefined, { timeout: 45_000 });
  const box = (await page.locator('[data-testid="canvas-stage"]').boundingBox())!;
  return { x: box.x, y: box.y };
}

/** Adds objects through the engine and waits until its scene holds them all. */
export async function addObjects(page: Page, objects: Obj[]): Promise<void> {
  await page.evaluate((list) => window.__wbCanvas!.add(list as never), objects);
  await page.waitForFunction(
    (ids) => ids.every((id) => window.__wbCanvas!.store.entries.has(id)),
    objects.map((o) => o.id),
  );
}

export const sticky = (id: string, x: number, y: number): Obj => ({
  id,
  type: 'sticky',
  x,
  y,
  width: 120,
  height: 120,
  text: id,
  backgroundColor: '#FFF2B3',
  textColor: '#333333',
  fontSize: 14,
  textAlign: 'left',
  zIndex: 0,
});
