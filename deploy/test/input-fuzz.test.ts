import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '@wb/testkit';
import { startEmbedded, type EmbeddedHandle } from '../embedded/embedded.ts';
import { call } from './clients.ts';
import {
  fillPath,
  ROUTES,
  sampleStringFields,
  showPath,
  stringFields,
  unclaimedRequestSchemas,
  withValueAt,
  type Caller,
  type Fixture,
  type RouteCase,
} from './public-routes.ts';

/**
 * Issue 32 item 7: a NUL, a lone surrogate and a 1 MB string in every string field of every public
 * route's input (found by walking its @wb/contracts schema: nested objects, arrays and records
 * included), through the gateway of the whole product, signed in as the route's caller (a user, an
 * administrator or nobody). Every answer is a 4xx with `{error, code}`, none a 500 and none a hang;
 * NUL and lone surrogates are VALIDATION_ERROR with a Russian text.
 */
const ADMIN = { email: 'fuzz-admin@example.com', password: 'Admin-Pass-123' };
const USER = { email: 'fuzz-user@example.com', password: 'Secret-123', name: 'Проверяющий' };
const HOSTILE = {
  nul: 'a\u0000b',
  'lone surrogate': 'a\ud800b',
  '1 MB': 'x'.repeat(1024 * 1024),
} as const;
type Hostile = keyof typeof HOSTILE;
/** What an answer is held to: 400 VALIDATION_ERROR for characters no store takes, any 4xx for the rest. */
type Expectation = Hostile | 'any 4xx';
const ANSWER_TIMEOUT_MS = 20_000;

describe('every string field of every route, fed NUL, a lone surrogate and 1 MB', () => {
  let handle: EmbeddedHandle;
  const tokens: Record<Caller, string | undefined> = { visitor: undefined, user: undefined, admin: undefined };
  let fixture: Fixture;

  beforeAll(async () => {
    handle = await startEmbedded({
      port: 0,
      dataDir: await tempDir('input-fuzz'),
      logLevel: 'silent',
      env: { AUTH_RATE_LIMIT_PER_MIN: '0', ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password },
    });
    const base = handle.url;
    const reg = await call(base, 'POST', '/api/auth/register', { body: USER });
    expect(reg.status).toBe(201);
    tokens.user = reg.body.accessToken;
    tokens.admin = (await call(base, 'POST', '/api/auth/login', { body: ADMIN })).body.accessToken;
    const token = tokens.user;
    const board = (await call(base, 'POST', '/api/boards', { token, body: { title: 'Доска', folder_id: null } })).body.board.id;
    const folder = (await call(base, 'POST', '/api/folders', { token, body: { name: 'Папка', parent_id: null } })).body.folder.id;
    const folder2 = (await call(base, 'POST', '/api/folders', { token, body: { name: 'Вторая', parent_id: null } })).body.folder.id;
    const tag = (await call(base, 'POST', '/api/tags', { token, body: { name: 'тег', color: '#EF4444' } })).body.tag.id;
    const plans = (await call(base, 'GET', '/api/billing/plans')).body.plans as Array<{ id: string; name: string; variants: Array<{ id: string }> }>;
    const pro = plans.find((p) => p.name === 'Pro')!;
    const order = await call(base, 'POST', '/api/billing/checkout', { token, body: { plan_id: pro.id, variant_id: pro.variants[0]!.id } });
    expect(order.status).toBe(201);
    const sub = await call(base, 'POST', '/api/admin/subscriptions', { token: tokens.admin, body: { user_id: reg.body.user.id, plan_id: pro.id, days: 30 } });
    expect(sub.status).toBe(201);
    fixture = {
      board,
      folder,
      folder2,
      tag,
      plan: pro.id,
      variant: pro.variants[0]!.id,
      subscription: sub.body.subscription.id,
      order: order.body.data.order_id,
      user: reg.body.user.id,
    };
  }, 120_000);
  afterAll(async () => {
    await handle?.stop();
  });

  it('claims every request schema @wb/contracts exports, and each sample is valid for its schema', () => {
    expect(unclaimedRequestSchemas(), 'request schemas with no route in deploy/test/public-routes.ts').toEqual([]);
    const f: Fixture = { board: 'b', folder: 'f', folder2: 'g', tag: 't', plan: ID, variant: ID, subscription: ID, order: ID, user: ID };
    for (const r of ROUTES) {
      if (!r.schema) continue;
      const parsed = r.schema.safeParse(r.sample(f));
      expect(parsed.error?.issues ?? [], `${r.method} ${r.path}`).toEqual([]);
    }
  });

  it('answers 4xx {error, code} to each, never 500, never hanging; NUL and lone surrogates as VALIDATION_ERROR', async () => {
    const problems: string[] = [];
    let sent = 0;
    for (const route of ROUTES) {
      const sample = route.sample(fixture);
      const fields = route.schema ? stringFields(route.schema) : sampleStringFields(sample);
      for (const field of fields) {
        for (const kind of Object.keys(HOSTILE) as Hostile[]) {
          // A URL carries UTF-8 bytes: a lone surrogate cannot be written in one (its bytes decode to U+FFFD).
          if (route.in === 'query' && kind === 'lone surrogate') continue;
          const input = withValueAt(sample, field, HOSTILE[kind]);
          const what = `${route.method} ${route.path} ${showPath(field)} ← ${kind}`;
          sent++;
          const problem = judge(await send(route, input), kind);
          if (problem) problems.push(`${what}: ${problem}`);
        }
      }
      // Path parameters are strings too: any 4xx (an id no row has is a 404 of its kind).
      if (route.path.includes(':')) {
        for (const [kind, value] of [['nul', '%00'], ['1 MB', 'x'.repeat(1024 * 1024)]] as const) {
          const path = route.path.replace(/:\w+/, value);
          sent++;
          const problem = judge(await send({ ...route, path }, route.sample(fixture)), 'any 4xx');
          if (problem) problems.push(`${route.method} ${route.path} path parameter ← ${kind}: ${problem}`);
        }
      }
    }
    expect(problems, `${problems.length} of ${sent} answers wrong`).toEqual([]);
    // The product still answers, and the user's session and password survived every attempt.
    const me = await call(handle.url, 'POST', '/api/auth/login', { body: { email: USER.email, password: USER.password } });
    expect(me.status).toBe(200);
  }, 600_000);

  type Answer = { status: number; text: string } | { hang: true } | { error: string };

  async function send(route: RouteCase, input: Record<string, unknown>): Promise<Answer> {
    const token = tokens[route.caller];
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    let url = handle.url + fillPath(route.path, fixture);
    let body: string | undefined;
    if (route.in === 'query') url += '?' + Object.entries(input).map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`).join('&');
    else {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(input);
    }
    try {
      const res = await fetch(url, { method: route.method, headers, body, signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS) });
      return { status: res.status, text: await res.text() };
    } catch (err) {
      if ((err as Error).name === 'TimeoutError') return { hang: true };
      return { error: (err as Error).message };
    }
  }
});

const ID = '00000000-0000-4000-8000-000000000000';


/** What is wrong with an answer to a hostile value, or undefined when it is right. */
function judge(answer: { status: number; text: string } | { hang: true } | { error: string }, kind: Expectation): string | undefined {
  if ('hang' in answer) return `no answer within ${ANSWER_TIMEOUT_MS / 1000} s`;
  if ('error' in answer) return `connection failed: ${answer.error}`;
  if (answer.status < 400 || answer.status >= 500) return `status ${answer.status}: ${answer.text.slice(0, 200)}`;
  // Node's HTTP parser answers an over-long URL (431) itself, before any app: no JSON to read there.
  if (answer.status === 431 || answer.status === 414) return undefined;
  let body: { error?: unknown; code?: unknown };
  try {
    body = JSON.parse(answer.text);
  } catch {
    return `status ${answer.status}, not JSON: ${answer.text.slice(0, 200)}`;
  }
  if (typeof body.error !== 'string' || !/[а-яё]/i.test(body.error) || typeof body.code !== 'string')
    return `status ${answer.status} without a Russian {error, code}: ${answer.text.slice(0, 200)}`;
  if ((kind === 'nul' || kind === 'lone surrogate') && (answer.status !== 400 || body.code !== 'VALIDATION_ERROR'))
    return `status ${answer.status} ${String(body.code)}, expected 400 VALIDATION_ERROR`;
  return undefined;
}
