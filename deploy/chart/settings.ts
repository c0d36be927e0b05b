// The settings table of docs/operations.md: every setting of every service with its default, from the
// service definitions' config schemas (what the service actually parses at start), marked secret or
// required from the topology manifest. Written by `npm run chart:generate`; deploy/test/chart.test.ts
// fails when the committed table differs.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { TOPOLOGY, type ServiceTopology } from '@wb/topology';
import { loadDefinition } from '../services.ts';

const BEGIN = '<!-- BEGIN settings: generated from the service definitions and libs/topology by `npm run chart:generate` -->';
const END = '<!-- END settings -->';

export const operationsDoc = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'docs', 'operations.md');

function shown(value: unknown): string {
  if (value === undefined) return '—';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return `\`${text.replaceAll('|', '\\|')}\``;
}

export async function renderSettingsTable(services: readonly ServiceTopology[] = TOPOLOGY): Promise<string> {
  const rows: string[] = [];
  for (const s of services) {
    if (!s.package) continue;
    const def = await loadDefinition(s.package);
    const shape = (def.configSchema as unknown as z.ZodObject).shape;
    for (const key of Object.keys(shape).sort()) {
      const parsed = (shape[key] as z.ZodType).safeParse(undefined);
      const notes = [
        s.settings.secrets.includes(key) ? 'secret' : '',
        !parsed.success || s.settings.required.includes(key) ? 'required' : '',
      ].filter(Boolean);
      rows.push(`| ${s.name} | \`${key}\` | ${parsed.success ? shown(parsed.data) : '—'} | ${notes.join(', ')} |`);
    }
  }
  return [BEGIN, '| service | setting | default | |', '|---|---|---|---|', ...rows, END].join('\n');
}

/** docs/operations.md with its settings block replaced. */
export async function docWithSettings(current = readFileSync(operationsDoc, 'utf8')): Promise<string> {
  const start = current.indexOf(BEGIN);
  const end = current.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/operations.md has no generated settings table (${BEGIN} … ${END})`);
  return current.slice(0, start) + (await renderSettingsTable()) + current.slice(end + END.length);
}
