/**
 * Helpers of the board-page browser tests (board-page-*.test.ts): accounts and boards through the
 * API, waiting for the board, the canvas's test hook (`window.__wbCanvas`), toasts.
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { TestAccount } from './harness.ts';

export async function apiCall<T>(base: string, token: string, method: string, url: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

export async function accessToken(base: string, acc: TestAccount): Promise<string> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: acc.email, password: acc.password }),
  });
  return ((await res.json()) as { accessToken: string }).accessToken;
}

export async function createBoard(base: string, token: string, title: string): Promise<string> {
  const { board } = await apiCall<{ board: { id: string } }>(base, token, 'POST', '/api/boards', { title, folder_id: null });
  return board.id;
}

/** The board page is up: the workspace is mounted and the 'Настройка вида...' overlay is gone. */
export async function boardReady(page: Page): Promise<void> {
  try {
    await page.waitForSelector('[data-testid="board-page"]', { timeout: 30_000 });
    await page.waitForSelector('[data-testid="board-setting-up"]', { state: 'detached' });
  } catch (err) {
    const shown = await page.locator('body').innerText().catch(() => '?');
    throw new Error(`board not ready at ${page.url()}: «${shown.slice(0, 200)}»`, { cause: err });
  }
}

/**
 * Two animation frames of the page have run: whatever its last input changed has been handled and
 * drawn. The sentinel for "nothing happened" checks on one page (a refused click, a key ignored).
 */
export const rendered = (page: Page): Promise<void> =>
  page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));

/** Polls patiently: the shared test machine is often under heavy load. */
export const poll = <T,>(fn: () => Promise<T> | T, timeout = 15_000) => expect.poll(fn, { timeout, interval: 100 });

export async function waitForToast(page: Page, text: string, timeout = 15_000): Promise<void> {
  await page.locator('.Toastify__toast', { hasText: text }).first().waitFor({ timeout });
}

export interface SeenObject {
  id: string;
  type: string;
  x: number;
  y: number;
  text?: string;
  reactions: { emoji: string }[];
}

/** The objects the mounted canvas holds. */
export async function objectsOn(page: Page): Promise<SeenObject[]> {
  return page.evaluate(() => {
    const engine = (window as unknown as { __wbCanvas?: { store: { allObjects(): Record<string, unknown>[] } } }).__wbCanvas;
    return (engine?.store.allObjects() ?? []).map((o) => ({
      id: String(o.id),
      type: String(o.type),
      x: Number(o.x),
      y: Number(o.y),
      ...(typeof o.text === 'string' ? { text: o.text } : {}),
      reactions: (o.reactions as { emoji: string }[] | undefined) ?? [],
    }));
  });
}

/** Adds a sticky through the canvas (as a user's edit: it reaches the server). */
export async function addStickyObject(page: Page, id: string, x: number, y: number): Promise<void> {
  await page.evaluate(
    ([oid, ox, oy]) => {
      const engine = (window as unknown as { __wbCanvas: { add(objs: unknown[]): void } }).__wbCanvas;
      engine.add([
        { id: oid, type: 'sticky', zIndex: 1, x: ox, y: oy, width: 120, height: 120, text: 'Стикер', backgroundColor: '#FFF2B3', textColor: '#333333', fontSize: 14, textAlign: 'left', reactions: [] },
      ]);
    },
    [id, x, y] as const,
  );
}

/** Page coordinates of the centre of an object. */
export async function centreOf(page: Page, id: string): Promise<{ x: number; y: number }> {
  const stage = (await page.locator('[data-testid="canvas-stage"]').boundingBox())!;
  const p = await page.evaluate((oid) => {
    const engine = (window as unknown as {
      __wbCanvas: { store: { object(id: string): { x: number; y: number; width?: number; height?: number } | null }; toScreen(p: { x: number; y: number }): { x: number; y: number } };
    }).__wbCanvas;
    const o = engine.store.object(oid)!;
    return engine.toScreen({ x: o.x + (o.width ?? 0) / 2, y: o.y + (o.height ?? 0) / 2 });
  }, id);
  return { x: stage.x + p.x, y: stage.y + p.y };
}

export async function stageBox(page: Page) {
  return (await page.locator('[data-testid="canvas-stage"]').boundingBox())!;
}

export const syncPhase = (page: Page) => page.locator('[data-testid="sync-status"]').getAttribute('data-phase');
