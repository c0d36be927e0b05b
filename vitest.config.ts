import { defineConfig } from 'vitest/config';

// The browser suite's settings, shared by its two projects (embedded and cluster).
const browserProject = {
  include: ['frontend/test/browser/**/*.test.ts'],
  // Each file starts its own product and Chromium on free ports and temporary directories,
  // so two files run side by side like the other projects.
  testTimeout: 60_000,
  // A page answers in tens of milliseconds on a quiet machine; with two browsers and a
  // product each sharing 2 cores a debounced search can take seconds. Patience, not slack:
  // every poll still waits for exactly the asserted state.
  expect: { poll: { timeout: 10_000, interval: 50 } },
  hookTimeout: 180_000,
};

// One Vitest run covers every workspace. Integration tests start real NATS and FerretDB processes
// and share one real PostgreSQL per run (a database per file, libs/testkit/src/global-setup.ts), so
// files run in forks with at most two at a time (the machines have 2 cores).
export default defineConfig({
  test: {
    globalSetup: ['libs/testkit/src/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['libs/*/test/**/*.test.ts', 'frontend/test/unit/**/*.test.ts', 'scripts/test/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'services',
          include: ['services/*/test/**/*.test.ts', 'deploy/**/test/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: { name: 'browser', ...browserProject },
      },
      {
        extends: true,
        test: {
          // The same browser files against the production shape (deploy/local/cluster.ts): every
          // service in its own process, NATS, FerretDB, two realtime replicas (harness.ts reads
          // WB_BROWSER_MODE). Why all of them and what it costs: docs/decisions.md.
          name: 'browser-cluster',
          ...browserProject,
          env: { WB_BROWSER_MODE: 'cluster' },
        },
      },
    ],
  },
});
