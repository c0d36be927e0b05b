import { defineConfig } from 'vitest/config';

// One Vitest run covers every workspace. Integration tests start real PostgreSQL, NATS and
// FerretDB processes, so files run in forks with at most two at a time (the machines have 2 cores).
export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['libs/*/test/**/*.test.ts', 'frontend/test/unit/**/*.test.ts'],
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
        test: {
          name: 'browser',
          include: ['frontend/test/browser/**/*.test.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
