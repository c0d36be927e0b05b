/**
 * Browser-test harness: starts the whole product and Debian's Chromium via playwright-core. The
 * product runs in one of two shapes, chosen by WB_BROWSER_MODE (the Vitest project sets it):
 * - `embedded` (default): one process (deploy/embedded: every service, embedded Postgres, the
 *   in-process event transport, the built SPA from frontend/dist);
 * - `cluster`: the production shape (deploy/local/cluster.ts: every service in its own process,
 *   NATS JetStream, FerretDB, PostgreSQL and two realtime replicas behind the gateway).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
export const FRONTEND_DIR = path.resolve(here, '../..');
export const REPO_DIR = path.resolve(FRONTEND_DIR, '..');
export const DIST_DIR = path.join(FRONTEND_DIR, 'dist');
export const EMBEDDED_ENTRY = path.join(REPO_DIR, 'deploy/embedded/embedded.ts');
export const CLUSTER_ENTRY = path.join(REPO_DIR, 'deploy/local/cluster.ts');

/** Which shape of the product the browser tests start (see the header). */
export type ProductMode = 'embedded' | 'cluster';
export function productMode(): ProductMode {
  const mode = process.env.WB_BROWSER_MODE ?? 'embedded';
  if (mode !== 'embedded' && mode !== 'cluster')
    throw new Error(`WB_BROWSER_MODE=${mode}: expected "embedded" or "cluster"`);
  return mode;
}
/** Realtime replicas of the cluster mode: two, so a board's sockets and another board's may land on different ones. */
export const CLUSTER_REALTIME_REPLICAS = 2;

interface EmbeddedHandle {
  url: string;
  /** Mailpit's web UI and API, where the product's mails land (the embedded runner starts it). */
  mailpitUrl?: string;
  stop(): Promise<void>;
}
type StartEmbedded = (opts: {
  port?: number;
  dataDir?: string;
  staticDir?: string;
  env?: Record<string, string | undefined>;
  logLevel?: string;
}) => Promise<EmbeddedHandle>;
type StartCluster = (opts: {
  port?: number;
  staticDir?: string;
  realtimeReplicas?: number;
  env?: Record<string, string | undefined>;
}) => Promise<EmbeddedHandle>;

/** The administrator the auth service bootstraps from ADMIN_EMAIL / ADMIN_PASSWORD. */
export const ADMIN_ACCOUNT = {
  name: 'Администратор',
  email: 'admin-browser@example.com',
  password: 'Admin-Pass-123',
};

/**
 * Builds the SPA unless frontend/dist/index.html exists (set WB_REBUILD_SPA=1 to force a build).
 * The build holds /tmp/wb-spa-build.lock so parallel test runs never build over each other.
 */
export function ensureSpaBuilt(): void {
  if (existsSync(path.join(DIST_DIR, 'index.html')) && !process.env.WB_REBUILD_SPA) return;
  execFileSync('flock', ['/tmp/wb-spa-build.lock', 'npx', 'vite', 'build'], {
    cwd: FRONTEND_DIR,
    stdio: 'inherit',
    // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
    env: { ...process.env, NODE_ENV: 'production' },
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface Product {
  url: string;
  /** Mailpit's API (read with mailpit-api); absent when attached to a product started elsewhere. */
  mailpitUrl?: string;
  browser: Browser;
  stop(): Promise<void>;
}

/** What every test needs of the product, in either mode. */
const PRODUCT_ENV = {
  // Many sign-ins from one address within a minute: the gateway's auth rate limit is off here.
  AUTH_RATE_LIMIT_PER_MIN: '0',
  ADMIN_EMAIL: ADMIN_ACCOUNT.email,
  ADMIN_PASSWORD: ADMIN_ACCOUNT.password,
};

/** Starts the product in the mode WB_BROWSER_MODE names (a temporary data directory of its own). */
async function startServer(
  mode: ProductMode,
  port: number,
  dataDir: string,
): Promise<EmbeddedHandle & { url: string }> {
  if (mode === 'cluster') {
    const { startCluster } = (await import(pathToFileURL(CLUSTER_ENTRY).href)) as { startCluster: StartCluster };
    const cluster = await startCluster({
      port,
      staticDir: DIST_DIR,
      realtimeReplicas: CLUSTER_REALTIME_REPLICAS,
      env: PRODUCT_ENV,
    });
    // The cluster answers on 127.0.0.1; the pages open the address its mails link to (PUBLIC_URL),
    // as in the embedded mode, so a link from a mail lands on the same origin as the test's page.
    return { ...cluster, url: `http://localhost:${port}` };
  }
  if (!existsSync(EMBEDDED_ENTRY)) {
    throw new Error(
      `${path.relative(REPO_DIR, EMBEDDED_ENTRY)} does not exist yet: the embedded runner is needed`,
    );
  }
  const { startEmbedded } = (await import(pathToFileURL(EMBEDDED_ENTRY).href)) as {
    startEmbedded: StartEmbedded;
  };
  return startEmbedded({
    port,
    dataDir,
    staticDir: DIST_DIR,
    logLevel: process.env.LOG_LEVEL ?? 'warn',
    env: PRODUCT_ENV,
  });
}

/** The whole product plus a browser. Call in beforeAll; `stop()` in afterAll. */
export async function startProduct(): Promise<Product> {
  const mode = productMode();
  ensureSpaBuilt();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'wb-browser-'));
  const port = await freePort();
  let server: EmbeddedHandle | undefined;
  let browser: Browser | undefined;
  try {
    server = await startServer(mode, port, dataDir);
    browser = await launchBrowser();
  } catch (err) {
    await server?.stop().catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  const srv = server;
  const br = browser;
  return {
    url: srv.url.replace(/\/$/, ''),
    mailpitUrl: srv.mailpitUrl,
    browser: br,
    async stop() {
      await br.close().catch(() => {});
      await srv.stop().catch(() => {});
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Debian's Chromium (CHROMIUM_PATH overrides) driven by playwright-core. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'],
  });
}

/** A browser for a product that is already running at `url` (`stop()` closes only the browser). */
export async function attachProduct(url: string): Promise<Product> {
  const browser = await launchBrowser();
  return { url: url.replace(/\/$/, ''), browser, stop: () => browser.close() };
}

/**
 * The product of one test file: started in `beforeAll` (or attached to `attachUrl` when given),
 * stopped in `afterAll`. Call at the top level of the file, before the file's own hooks.
 */
export function useProduct(opts: { attachUrl?: string } = {}): Product {
  const product = {} as Product;
  beforeAll(async () => {
    Object.assign(product, opts.attachUrl ? await attachProduct(opts.attachUrl) : await startProduct());
  }, 240_000);
  afterAll(async () => {
    await product.stop?.();
  });
  return product;
}

let counter = 0;
/** A unique address per call, so tests never share an account. */
export function uniqueEmail(prefix = 'user'): string {
  counter++;
  return `${prefix}-${Date.now().toString(36)}-${process.pid}-${counter}-${Math.random().toString(36).slice(2, 7)}@example.com`;
}

export interface TestAccount {
  name: string;
  email: string;
  password: string;
}

export function newAccount(prefix = 'user'): TestAccount {
  return { name: 'Тестовый Пользователь', email: uniqueEmail(prefix), password: 'Secret-Pass-1' };
}

/** Registers an account through the API (faster than the form when the form is not under test). */
export async function registerViaApi(baseUrl: string, acc: TestAccount): Promise<void> {
  const res = await fetch(`${baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: acc.name, email: acc.email, password: acc.password }),
  });
  if (res.status !== 201 && res.status !== 200)
    throw new Error(`register failed: ${res.status} ${await res.text()}`);
}

export interface PageSession {
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors seen so far (tests assert there are none). */
  errors: string[];
  close(): Promise<void>;
}

export async function openPage(
  product: Product,
  viewport = { width: 1280, height: 860 },
): Promise<PageSession> {
  // The offline app shell's service worker would answer requests a test routes (page.route never sees
  // them): blocked here; offline-reload.test.ts opens its own contexts with the worker allowed.
  const context = await product.browser.newContext({ baseURL: product.url, viewport, locale: 'ru-RU', serviceWorkers: 'block' });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return { context, page, errors, close: () => context.close() };
}

/**
 * One page shared by the tests of a `describe`: opened in `beforeAll` (then `setup` runs on it),
 * closed in `afterAll`.
 */
export function usePage(product: Product, setup?: (s: PageSession) => Promise<void>): PageSession {
  const session = {} as PageSession;
  beforeAll(async () => {
    Object.assign(session, await openPage(product));
    await setup?.(session);
  });
  afterAll(async () => {
    await session.close();
  });
  return session;
}

/** Runs `fn` with a fresh page (see `openPage`) and closes the page's context afterwards. */
export async function withPage<T>(
  product: Product,
  fn: (s: PageSession) => Promise<T>,
  viewport?: { width: number; height: number },
): Promise<T> {
  const s = await openPage(product, viewport);
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

/** Waits until the app finished its one-time auth initialisation. */
export async function appReady(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid="app-loading"]', { state: 'detached' });
}

/** Fills and submits the login form. */
export async function loginViaForm(page: Page, email: string, password: string): Promise<void> {
  await page.fill('#email', email);
  await page.fill('#password', password);
  await page.click('[data-testid="login-submit"]');
}

/** Signs in through the UI and waits for the dashboard. */
export async function signIn(page: Page, acc: TestAccount): Promise<void> {
  await page.goto('/login');
  await appReady(page);
  await loginViaForm(page, acc.email, acc.password);
  await page.waitForURL((u) => u.pathname === '/dashboard');
}

export function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}

/** Text of the visible toasts. */
export async function toastTexts(page: Page): Promise<string[]> {
  return page.locator('.Toastify__toast').allInnerTexts();
}

/** Logs in through the API and puts the session into the page's localStorage (no form involved). */
export async function signInWithTokens(page: Page, baseUrl: string, acc: TestAccount): Promise<void> {
  const res = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: acc.email, password: acc.password }),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  const { accessToken, refreshToken } = (await res.json()) as { accessToken: string; refreshToken: string };
  await page.goto('/pricing');
  // The app module loads after the entry (boot.ts) and its initAuth clears the stored tokens of a
  // visitor: wait until it has run (the app rendered) so it cannot wipe the tokens set below.
  await page.waitForFunction(() => {
    // index.html's own loader sits in #root until React's first commit; once the page shows, initAuth has run.
    const root = document.getElementById('root');
    return !!root && root.childElementCount > 0 && !root.querySelector('[data-testid="app-loading"]');
  });
  await page.evaluate(
    ([a, r]) => {
      localStorage.setItem('accessToken', a);
      localStorage.setItem('refreshToken', r);
    },
    [accessToken, refreshToken] as const,
  );
}
