#!/usr/bin/env node
// `npm test`: installs what is missing, builds the SPA when its sources changed, runs every Vitest
// project once and closes with `N passed, N failed` (plus `, N skipped` when any were skipped).
// Extra arguments go to Vitest: `npm test -- services/auth`, `npm test -- --project unit`.
//
// The counts are also written to .ci-results/test-summary.json for .ci/run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureInfra, repoRoot, toolsBin } from './ensure-infra.mjs';
import { ensureSupportedNode } from './node-runtime.mjs';

await ensureSupportedNode();

const resultsDir = path.join(repoRoot, '.ci-results');
const jsonFile = path.join(resultsDir, 'vitest.json');
const summaryFile = path.join(resultsDir, 'test-summary.json');
const projectsFile = path.join(resultsDir, 'vitest-projects.json');
const extraArgs = process.argv.slice(2);

const log = (msg) => process.stdout.write(`[test] ${msg}\n`);

/** Failures found outside Vitest (install, build, crashed runner), each counted as one failed test. */
const outsideFailures = [];

function newestMtime(p) {
  let st;
  try {
    st = statSync(p);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const e of readdirSync(p)) {
    if (e === 'node_modules' || e === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(p, e)));
  }
  return newest;
}

function buildSpaIfStale() {
  const pkgFile = path.join(repoRoot, 'frontend', 'package.json');
  const pkg = existsSync(pkgFile) ? JSON.parse(readFileSync(pkgFile, 'utf8')) : {};
  if (!pkg.scripts?.build) {
    log('frontend has no build script yet: skipping the SPA build');
    return;
  }
  // A path filter that cannot reach the browser tests (or the servers that serve the SPA) does not
  // need a fresh bundle; building it would only cost time.
  if (
    extraArgs.some((a) => !a.startsWith('-')) &&
    !extraArgs.some((a) => /frontend|browser|gateway|deploy/.test(a))
  ) {
    log('path filter does not touch the SPA: skipping its build');
    return;
  }
  const built = newestMtime(path.join(repoRoot, 'frontend', 'dist', 'index.html'));
  const inputs = [
    'frontend/src',
    'frontend/public',
    'frontend/index.html',
    'frontend/package.json',
    'frontend/vite.config.ts',
    'frontend/tsconfig.json',
    'libs/contracts/src',
    'libs/board-model/src',
    'package-lock.json',
  ];
  const newest = Math.max(...inputs.map((p) => newestMtime(path.join(repoRoot, p))));
  if (built && built >= newest) {
    log('frontend/dist is up to date');
    return;
  }
  log(built ? 'frontend sources changed: rebuilding the SPA' : 'frontend/dist missing: building the SPA');
  const r = spawnSync('npm', ['run', 'build', '-w', 'frontend'], { cwd: repoRoot, stdio: 'inherit' });
  if (r.status !== 0)
    outsideFailures.push(`SPA build (npm run build -w frontend) failed with ${r.status ?? r.signal}`);
}

/** Counts from Vitest's JSON report. A file that failed to load has no failed test but counts as one failure. */
function countResults(report) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const failedNames = [];
  for (const file of report.testResults ?? []) {
    let fileFailed = 0;
    for (const t of file.assertionResults ?? []) {
      if (t.status === 'passed') passed++;
      else if (t.status === 'failed') {
        fileFailed++;
        failedNames.push(`${path.relative(repoRoot, file.name)} > ${t.fullName ?? t.title}`);
      } else skipped++; // skipped, pending, todo, disabled
    }
    if (fileFailed === 0 && file.status === 'failed') {
      fileFailed = 1;
      const why = (file.message ?? '').split('\n')[0];
      failedNames.push(`${path.relative(repoRoot, file.name)} (file failed${why ? `: ${why}` : ''})`);
    }
    failed += fileFailed;
  }
  return { passed, failed, skipped, failedNames };
}

function writeSummary(summary) {
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(summaryFile, JSON.stringify(summary, null, 2));
}

function finish(passed, failed, skipped, failedNames = [], projects = undefined) {
  failed += outsideFailures.length;
  const names = [...outsideFailures, ...failedNames];
  writeSummary({ passed, failed, skipped, failures: names, ...(projects ? { projects } : {}) });
  if (names.length) {
    process.stdout.write('\nFailed:\n');
    for (const n of names.slice(0, 200)) process.stdout.write(`  - ${n}\n`);
    if (names.length > 200) process.stdout.write(`  ... and ${names.length - 200} more\n`);
  }
  process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  process.exit(failed > 0 ? 1 : 0);
}

// ---------------------------------------------------------------- main

rmSync(summaryFile, { force: true });
const problems = ensureInfra({
  browser: process.env.WB_NO_BROWSER !== '1',
  go: process.env.WB_NO_GO !== '1',
});
for (const p of problems) outsideFailures.push(`infrastructure: ${p}`);
const vitestBin = path.join(repoRoot, 'node_modules', 'vitest', 'vitest.mjs');
if (!existsSync(vitestBin)) {
  outsideFailures.push('vitest is not installed (node_modules incomplete), no test could run');
  finish(0, 0, 0);
}

buildSpaIfStale();

rmSync(jsonFile, { force: true });
rmSync(projectsFile, { force: true });
mkdirSync(resultsDir, { recursive: true });
const started = Date.now();
log(`vitest run ${extraArgs.join(' ')}`.trim());
const r = spawnSync(
  process.execPath,
  [
    vitestBin,
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${jsonFile}`,
    `--reporter=${path.join(repoRoot, 'scripts', 'vitest-project-counts.mjs')}`,
    ...extraArgs,
  ],
  {
    cwd: repoRoot,
    stdio: 'inherit',
    env: {
      ...process.env,
      PATH: [toolsBin, process.env.PATH ?? ''].join(path.delimiter),
      WB_PROJECT_COUNTS_FILE: projectsFile,
    },
  },
);
log(
  `vitest finished in ${((Date.now() - started) / 1000).toFixed(0)} s with exit code ${r.status ?? r.signal}`,
);

let counts = { passed: 0, failed: 0, skipped: 0, failedNames: [] };
if (existsSync(jsonFile)) {
  try {
    counts = countResults(JSON.parse(readFileSync(jsonFile, 'utf8')));
  } catch (err) {
    outsideFailures.push(`could not read Vitest's JSON report: ${err.message}`);
  }
} else outsideFailures.push('Vitest wrote no JSON report (it crashed or found no test files)');

// Unhandled errors and "no test files found" fail the run without failing any single test.
if (r.status !== 0 && counts.failed === 0 && outsideFailures.length === 0)
  outsideFailures.push(
    `vitest exited with ${r.status ?? r.signal} (unhandled error or no test files; see its output above)`,
  );

// Per project (the browser files run twice: embedded and as the local cluster), from
// scripts/vitest-project-counts.mjs; its failure names say which project failed.
let projects;
if (existsSync(projectsFile)) {
  try {
    projects = JSON.parse(readFileSync(projectsFile, 'utf8'));
  } catch (err) {
    log(`could not read the per-project counts: ${err.message}`);
  }
}
if (projects) {
  for (const [name, p] of Object.entries(projects))
    log(
      `project ${name}: ${p.files} files, ${p.passed} passed, ${p.failed} failed` +
        `${p.skipped ? `, ${p.skipped} skipped` : ''} (${p.fileSeconds} s summed over its files)`,
    );
  const byProject = Object.values(projects).flatMap((p) => p.failures);
  // The JSON report's totals stay the count; the names come from here when both agree.
  if (byProject.length === counts.failedNames.length) counts.failedNames = byProject;
  for (const p of Object.values(projects)) delete p.failures;
}

finish(counts.passed, counts.failed, counts.skipped, counts.failedNames, projects);
