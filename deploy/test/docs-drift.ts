/**
 * What docs/architecture.md claims, read back from its tables, and what the code has, read from the
 * running apps, the topology manifest, the event contracts and the migrations; docs-drift.test.ts
 * compares the two both ways, so neither a new route, event, consumer or table nor a removed one
 * can leave the document behind.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Express } from 'express';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');

// ---- the document ----

/** The rows of the first Markdown table under `## heading`, as cells (the header row dropped). */
export function tableRows(doc: string, heading: string): string[][] {
  const start = doc.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`docs/architecture.md has no "## ${heading}"`);
  const end = doc.indexOf('\n## ', start + 1);
  const lines = doc.slice(start, end < 0 ? undefined : end).split('\n').filter((l) => l.startsWith('|'));
  // header, separator, rows
  return lines.slice(2).map((l) => l.slice(1, -1).split(' | ').map((c) => c.trim()));
}

/** A cell without its parenthesised remarks (a table's columns named there are not tables). */
export const withoutRemarks = (cell: string): string => cell.replace(/\([^()]*\)/g, '');

/** The text of every `code span` in a cell. */
export const codeSpans = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

export interface DocRoute {
  /** Upper-case methods; empty for a prefix that covers every method (`/api/admin/plans*`). */
  methods: string[];
  segments: string[];
  /** A trailing `*`: every path under it. */
  prefix: boolean;
}

const METHODS = /^((?:GET|POST|PUT|PATCH|DELETE|WS)(?:\/(?:GET|POST|PUT|PATCH|DELETE))*) (\S+)/;

/** `{a,b}` alternatives expanded; `{id}` is a parameter and stays. */
function expand(p: string): string[] {
  const m = /\{([^{}]*,[^{}]*)\}/.exec(p);
  if (!m) return [p];
  return m[1]!.split(',').flatMap((alt) => expand(p.slice(0, m.index) + alt + p.slice(m.index + m[0].length)));
}

const segmentsOf = (p: string): string[] => p.split('/').filter(Boolean);

/**
 * The routes one cell of the Routes table names. `METHOD /path` is explicit; a bare `/x` after it is
 * a sibling: the same methods, under the parent of the last explicit path (`POST /api/auth/register`,
 * `/login` → `POST /api/auth/login`). Query strings and trailing words (`{hashes}`) are dropped.
 */
export function routesInCell(cell: string): DocRoute[] {
  const out: DocRoute[] = [];
  let methods: string[] | null = null;
  let parent: string[] = [];
  for (const span of codeSpans(cell)) {
    const explicit = METHODS.exec(span);
    let raw: string;
    if (explicit) {
      methods = explicit[1]!.split('/');
      raw = explicit[2]!;
    } else if (span.startsWith('/')) {
      raw = span.split(' ')[0]!;
    } else continue;
    raw = raw.split('?')[0]!;
    const prefix = raw.endsWith('*');
    // A bare path before any method in the cell is prose (`/internal`), unless it is a prefix.
    if (!explicit && !methods && !prefix) continue;
    if (prefix) raw = raw.slice(0, -1);
    for (const p of expand(raw)) {
      let segments = segmentsOf(p);
      if (!explicit && methods && !prefix) segments = [...parent, ...segments];
      out.push({ methods: prefix && !explicit ? [] : (methods ?? []), segments, prefix });
    }
    if (explicit) parent = segmentsOf(raw).slice(0, -1);
  }
  return out;
}

const isParam = (s: string) => s.startsWith(':') || /^\{[^,]*\}$/.test(s);

/** Whether a documented route covers the code's `method path` (a code parameter matches any documented segment). */
export function covers(doc: DocRoute, method: string, codePath: string): boolean {
  if (doc.methods.length > 0 && !doc.methods.includes(method)) return false;
  const code = segmentsOf(codePath);
  if (doc.prefix ? code.length < doc.segments.length : code.length !== doc.segments.length) return false;
  return doc.segments.every((d, i) => {
    const c = code[i]!;
    if (c.startsWith(':')) return true;
    return !isParam(d) && d === c;
  });
}

// ---- the code ----

export interface CodeRoute {
  method: string;
  path: string;
}

interface RouterLayer {
  route?: { path: unknown; methods: Record<string, boolean> };
  handle?: { stack?: RouterLayer[] };
  rawPath?: unknown;
}

const join = (a: string, b: string) => `${a.replace(/\/$/, '')}/${b.replace(/^\//, '')}`.replace(/\/$/, '') || '/';

/** Every route an Express 5 app answers (routers mounted with `use` walked; `rawPath` is router 2.x's record of the mount path). */
export function appRoutes(app: Express): CodeRoute[] {
  const out: CodeRoute[] = [];
  const walk = (stack: RouterLayer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
        for (const p of paths) {
          if (typeof p !== 'string') continue;
          for (const [m, on] of Object.entries(layer.route.methods)) if (on && m !== '_all') out.push({ method: m.toUpperCase(), path: join(prefix, p) });
        }
      } else if (layer.handle?.stack) {
        walk(layer.handle.stack, typeof layer.rawPath === 'string' ? join(prefix, layer.rawPath) : prefix);
      }
    }
  };
  walk((app as unknown as { router: { stack: RouterLayer[] } }).router.stack, '');
  return out;
}

/** Every table a service's migrations leave (CREATE minus DROP), by service directory. */
export function migrationTables(service: string): Set<string> {
  const tables = new Set<string>();
  const dirs = [path.join(ROOT, 'services', service, 'migrations')];
  const extra = path.join(ROOT, 'services', service, 'src');
  for (const entry of readdirSync(extra, { recursive: true, withFileTypes: true })) {
    if (entry.isDirectory() && entry.name === 'migrations') dirs.push(path.join(entry.parentPath, entry.name));
  }
  for (const dir of dirs) {
    let files: string[];
    try {
      files = readdirSync(dir).filter((f) => f.endsWith('.sql')).sort();
    } catch {
      continue;
    }
    for (const f of files) {
      const sql = readFileSync(path.join(dir, f), 'utf8');
      for (const m of sql.matchAll(/\b(CREATE|DROP) TABLE (?:IF (?:NOT )?EXISTS )?"?([\w]+)"?(?:\."?([\w]+)"?)?/gi)) {
        const name = (m[3] ?? m[2]!).toLowerCase();
        if (m[1]!.toUpperCase() === 'CREATE') tables.add(name);
        else tables.delete(name);
      }
    }
  }
  return tables;
}

/** Collection names a MongoDB store module opens (`db.collection('name')`). */
export function mongoCollections(file: string): string[] {
  return [...readFileSync(path.join(ROOT, file), 'utf8').matchAll(/\.collection(?:<[^>]*>)?\('([\w]+)'\)/g)].map((m) => m[1]!);
}
