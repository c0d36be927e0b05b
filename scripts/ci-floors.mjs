#!/usr/bin/env node
// The floor check of .ci/run: a tier (a Vitest project, or the chart checks) that runs fewer tests
// than the floor recorded in .ci/floors.json fails the run, so a tier whose files disappeared (a
// moved folder, a broken include glob) cannot pass as "0 failed". Floors and why: docs/decisions.md.
//
//   node scripts/ci-floors.mjs <test-summary.json> <floors.json> [tier=count ...]
//
// Extra `tier=count` arguments add tiers counted outside Vitest (.ci/run passes `chart=N`, its chart
// checks). Prints one line per tier below its floor on stdout and the counts on stderr; exits 1 when
// a tier is below its floor, 2 when the floors cannot be read.
import { existsSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** Tests each tier ran: passed + failed (a skipped test did not run). */
export function tierCounts(summary, extra = {}) {
  const counts = {};
  for (const [name, p] of Object.entries(summary?.projects ?? {})) counts[name] = (p.passed | 0) + (p.failed | 0);
  return { ...counts, ...extra };
}

/** The tiers of `floors` that ran fewer tests than their floor; a tier absent from `counts` ran none. */
export function belowFloor(floors, counts) {
  return Object.entries(floors)
    .map(([tier, floor]) => ({ tier, floor, ran: counts[tier] ?? 0 }))
    .filter((t) => t.ran < t.floor);
}

export const describeShortfall = (t) => `tier ${t.tier} ran ${t.ran} tests, below its floor of ${t.floor} (.ci/floors.json)`;

function main([summaryFile, floorsFile, ...rest]) {
  let floors;
  try {
    floors = JSON.parse(readFileSync(floorsFile, 'utf8'));
  } catch (err) {
    process.stdout.write(`floors could not be read from ${floorsFile}: ${err.message}\n`);
    return 2;
  }
  // A missing summary is already a failure of .ci/run; here every Vitest tier then ran nothing.
  const summary = summaryFile && existsSync(summaryFile) ? JSON.parse(readFileSync(summaryFile, 'utf8')) : {};
  const extra = Object.fromEntries(rest.map((a) => a.split('=')).map(([k, v]) => [k, Number(v) | 0]));
  const counts = tierCounts(summary, extra);
  process.stderr.write(
    `[ci] tests run per tier: ${Object.keys(floors).map((t) => `${t} ${counts[t] ?? 0} (floor ${floors[t]})`).join(', ')}\n`,
  );
  const below = belowFloor(floors, counts);
  for (const t of below) process.stdout.write(`${describeShortfall(t)}\n`);
  return below.length ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exit(main(process.argv.slice(2)));
