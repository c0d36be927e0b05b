// A Vitest reporter for scripts/test.mjs: per project (unit, services, browser, browser-cluster...)
// the files, passed/failed/skipped tests and the summed time of its files, written as JSON to the
// path in WB_PROJECT_COUNTS_FILE. Vitest's JSON report names each file but not its project, and the
// browser files run in two projects, so the per-project figures and failure names come from here.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export default class ProjectCountsReporter {
  onTestRunEnd(testModules) {
    const file = process.env.WB_PROJECT_COUNTS_FILE;
    if (!file) return;
    const projects = {};
    for (const m of testModules) {
      const name = m.project.name || '(root)';
      const p = (projects[name] ??= { files: 0, passed: 0, failed: 0, skipped: 0, fileSeconds: 0, failures: [] });
      p.files++;
      // Start-up (the product, a browser) is in the hooks, which `duration` includes.
      p.fileSeconds += (m.diagnostic().duration ?? 0) / 1000;
      const rel = path.relative(process.cwd(), m.moduleId);
      let moduleFailed = 0;
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        if (state === 'passed') p.passed++;
        else if (state === 'failed') {
          moduleFailed++;
          p.failures.push(`[${name}] ${rel} > ${t.fullName}`);
        } else p.skipped++;
      }
      if (moduleFailed === 0 && m.state() === 'failed') {
        moduleFailed = 1;
        p.failures.push(`[${name}] ${rel} (file failed: ${(m.errors()[0]?.message ?? '').split('\n')[0]})`);
      }
      p.failed += moduleFailed;
    }
    for (const p of Object.values(projects)) p.fileSeconds = Math.round(p.fileSeconds);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(projects, null, 2));
  }
}
