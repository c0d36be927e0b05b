/**
 * Issue 36 item 4: docs/architecture.md cannot drift from the code. Its Routes table is compared
 * with the routes every service's running app answers (the whole product in the embedded mode), its
 * Events table with the event contracts and the topology manifest's consumers, its Tables table with
 * the migrations and the MongoDB stores, both ways. (docs/operations.md's settings table is generated
 * from the services' config schemas and checked by chart.test.ts.)
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventSchemas } from '@wb/contracts';
import { TOPOLOGY as MANIFEST, type ServiceTopology } from '@wb/topology';
import { tempDir } from '@wb/testkit';
import { startEmbedded, type EmbeddedHandle } from '../embedded/embedded.ts';
import {
  ROOT,
  appRoutes,
  codeSpans,
  covers,
  migrationTables,
  mongoCollections,
  routesInCell,
  tableRows,
  withoutRemarks,
  type CodeRoute,
  type DocRoute,
} from './docs-drift.ts';

const TOPOLOGY: readonly ServiceTopology[] = MANIFEST;
const doc = readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8');
/** Every service answers these from the service kit; the doc says so once under the table. */
const KIT_ROUTES = new Set(['/health', '/ready', '/metrics']);
/** The doc names admin-monitoring by its package; the manifest and the apps by its short name. */
const serviceOf = (cell: string) => {
  const name = cell.split(' (')[0]!.trim();
  return name === 'admin-monitoring' ? 'admin' : name;
};

describe('docs/architecture.md', () => {
  let handle: EmbeddedHandle;
  let code: Map<string, CodeRoute[]>;
  const documented = new Map<string, DocRoute[]>();
  for (const [paths, service] of tableRows(doc, 'Routes')) {
    const list = documented.get(serviceOf(service!)) ?? [];
    list.push(...routesInCell(paths!));
    documented.set(serviceOf(service!), list);
  }

  beforeAll(async () => {
    handle = await startEmbedded({ port: 0, dataDir: await tempDir('docs-drift'), logLevel: 'silent' });
    code = new Map(Object.entries(handle.apps()).map(([name, app]) => [name, appRoutes(app).filter((r) => !KIT_ROUTES.has(r.path))]));
  }, 120_000);
  afterAll(() => handle?.stop());

  it('reads routes from the apps (the walker finds known ones)', () => {
    expect(code.get('auth')).toContainEqual({ method: 'POST', path: '/api/auth/login' });
    expect(code.get('boards')).toContainEqual({ method: 'GET', path: '/api/boards/:id' });
    expect(code.get('admin')).toContainEqual({ method: 'GET', path: '/api/admin/stats' });
  });

  it("lists every route each service answers, in that service's rows", () => {
    const missing = [...code].flatMap(([service, routes]) =>
      routes
        .filter((r) => !(documented.get(service) ?? []).some((d) => covers(d, r.method, r.path)))
        .map((r) => `${service}: ${r.method} ${r.path}`),
    );
    expect(missing).toEqual([]);
  });

  it('lists no route a service does not answer', () => {
    const stale: string[] = [];
    for (const [service, routes] of documented) {
      const answered = code.get(service);
      if (!answered) continue; // the supervisor and the SPA fallback are not a service's app
      for (const d of routes) {
        if (d.methods.includes('WS')) continue;
        const methods = d.methods.length ? d.methods : [''];
        for (const m of methods) {
          const found = answered.some((r) => (m === '' || r.method === m) && covers({ ...d, methods: m ? [m] : [] }, r.method, r.path));
          if (!found) stale.push(`${service}: ${m || '*'} /${d.segments.join('/')}${d.prefix ? '*' : ''}`);
        }
      }
    }
    expect(stale).toEqual([]);
  });

  it('lists every event type of the contracts and no other', () => {
    const named = new Set(tableRows(doc, 'Events').flatMap(([events]) => codeSpans(events!)));
    expect([...named].sort()).toEqual(Object.keys(EventSchemas).sort());
  });

  it("names every durable consumer of the manifest, and the manifest's consumers are the services' code", () => {
    const named = new Set(tableRows(doc, 'Events').flatMap((cells) => codeSpans(cells[2]!).filter((s) => /^[a-z]+(-[a-z]+)+$/.test(s))));
    const manifest = TOPOLOGY.flatMap((s) => s.needs.nats?.consumers ?? []);
    expect([...named].sort()).toEqual([...manifest].sort());
    // The manifest's names are the ones the consumers subscribe with.
    for (const s of TOPOLOGY) {
      const dir = s.name === 'admin' ? 'admin-monitoring' : s.name;
      for (const c of s.needs.nats?.consumers ?? []) expect(grepService(dir, `'${c}'`), `${s.name} ${c}`).toBe(true);
    }
  });

  it('lists every table of the migrations and the MongoDB stores, and none they do not have', () => {
    const rows = tableRows(doc, 'Tables');
    const mongo = new Set([...mongoCollections('services/realtime/src/store/mongo.ts'), ...mongoCollections('services/realtime/src/images/mongo.ts')]);
    const library = new Set(['outbox', 'processed_events']); // @wb/events creates them in every schema that publishes or consumes
    const problems: string[] = [];
    for (const s of TOPOLOGY) {
      const dir = s.name === 'admin' ? 'admin-monitoring' : s.name;
      const tables = migrationTables(dir);
      if (tables.size === 0) continue;
      // realtime's PostgreSQL schema is the embedded mode's; the cluster's manifest gives it MongoDB.
      const schema = s.needs.postgres?.schema ?? dir;
      const named = new Set(
        rows.filter(([store]) => store === `Postgres \`${schema}\`` || store!.startsWith(`Postgres \`${schema}\` `)).flatMap(([, table]) =>
          codeSpans(withoutRemarks(table!)).map((t) => t.split('.')[0]!),
        ),
      );
      for (const t of tables) if (!named.has(t)) problems.push(`${schema}.${t} is not in the doc`);
      for (const t of named) if (!tables.has(t) && !library.has(t)) problems.push(`${schema}.${t} is in the doc, not in ${dir}'s migrations`);
    }
    const mongoNamed = new Set(rows.filter(([store]) => store!.startsWith('MongoDB')).flatMap(([, table]) => codeSpans(withoutRemarks(table!))));
    for (const c of mongo) if (!mongoNamed.has(c) && !library.has(c)) problems.push(`MongoDB ${c} is not in the doc`);
    for (const c of mongoNamed) if (!mongo.has(c)) problems.push(`MongoDB ${c} is in the doc, not in the stores`);
    expect(problems).toEqual([]);
  });
});

/** Whether any source file of a service contains `needle`. */
function grepService(dir: string, needle: string): boolean {
  const root = path.join(ROOT, 'services', dir, 'src');
  const files = (readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
  return files.some((f) => readFileSync(path.join(root, f), 'utf8').includes(needle));
}
