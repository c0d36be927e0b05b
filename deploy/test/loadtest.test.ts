import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '@wb/testkit';
import { startEmbedded, type EmbeddedHandle } from '../embedded/embedded.ts';

/**
 * The Artillery load tests (loadtests/artillery, `npm run loadtest`) against the embedded product,
 * each for a few seconds at a tiny rate: with sane thresholds a run passes and measured what it
 * claims (every user completed, deliveries counted); with an impossible one its `ensure` check fails
 * the run with a non-zero exit. Figures are not asserted here (loadtests/README.md).
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function loadtest(scenario: 'http' | 'ws', target: string, env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join('loadtests', 'artillery', 'run.ts'), scenario, '--target', target], {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.once('exit', (code) => resolve({ code, out }));
  });
}

const HTTP_SMALL = { LT_HTTP_SECONDS: '3', LT_HTTP_RATE: '1' };
const WS_SMALL = { LT_WS_USERS: '3', LT_WS_BOARDS: '1', LT_WS_EDITS: '3', LT_WS_JOIN_SECONDS: '1' };
// Generous enough for two cores shared with other suites: these runs check validity, not speed.
const SANE = { LT_HTTP_P95_MS: '20000', LT_HTTP_P99_MS: '30000', LT_WS_P95_MS: '20000', LT_WS_P99_MS: '30000', LT_MAX_ERROR_PCT: '0' };

describe('npm run loadtest (Artillery)', () => {
  let handle: EmbeddedHandle;

  beforeAll(async () => {
    const dataDir = await tempDir('loadtest');
    const staticDir = path.join(dataDir, 'spa');
    await mkdir(staticDir, { recursive: true });
    await writeFile(path.join(staticDir, 'index.html'), '<!doctype html><title>Доска</title>');
    handle = await startEmbedded({ port: 0, dataDir, staticDir, logLevel: 'silent', env: { AUTH_RATE_LIMIT_PER_MIN: '0' } });
  });
  afterAll(async () => {
    await handle?.stop();
  });

  it('the HTTP scenario passes its thresholds, and fails the run when one cannot be met', async () => {
    const ok = await loadtest('http', handle.url, { ...HTTP_SMALL, ...SANE });
    expect(ok.out).toContain('[loadtest] http: thresholds met');
    expect(ok.out).toMatch(/users 3 completed \/ 0 failed of 3/);
    // Every request of the flow answered as the contracts say (the expect plugin counts each check).
    expect(ok.out).not.toMatch(/plugins\.expect\.failed/);
    expect(ok.code).toBe(0);

    // No request is answered within 1 ms of being sent (registration alone hashes a password).
    const bad = await loadtest('http', handle.url, { ...HTTP_SMALL, ...SANE, LT_HTTP_P95_MS: '1' });
    expect(bad.out).toContain('fail: http.response_time.p95 < 1');
    expect(bad.out).toContain('[loadtest] http: FAILED');
    expect(bad.code).not.toBe(0);
  }, 120_000);

  it('the WebSocket scenario measures deliveries between users of a board, and its thresholds fail the run', async () => {
    const ok = await loadtest('ws', handle.url, { ...WS_SMALL, ...SANE });
    expect(ok.out).toContain('[loadtest] ws: thresholds met');
    expect(ok.out).toMatch(/users 3 completed \/ 0 failed of 3/);
    const deliveries = Number(/update delivery p50 [\d.]+ \/ p95 [\d.]+ \/ p99 [\d.]+ ms \(n=(\d+)\)/.exec(ok.out)?.[1]);
    const awareness = Number(/awareness delivery p50 [\d.]+ \/ p95 [\d.]+ \/ p99 [\d.]+ ms \(n=(\d+)\)/.exec(ok.out)?.[1]);
    expect(deliveries).toBeGreaterThan(0);
    expect(awareness).toBeGreaterThan(0);
    expect(ok.code).toBe(0);

    const bad = await loadtest('ws', handle.url, { ...WS_SMALL, ...SANE, LT_WS_P95_MS: '0' });
    expect(bad.out).toContain('fail: ws.update_delivery.p95 < 0');
    expect(bad.code).not.toBe(0);
  }, 120_000);
});
