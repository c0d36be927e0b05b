import { defineConfig } from 'vitest/config';

// Frontend tests: unit tests are pure functions in node; browser tests start the whole product
// (deploy/embedded) and drive Debian's Chromium with playwright-core.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 240_000,
    fileParallelism: false,
  },
});
