import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const fixture = (name: string) =>
  path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', name);

export interface ChildRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a TypeScript fixture in its own Node process (as a service's main.ts runs), so process.exit
 * and signal handlers act on that process and not on the test runner.
 */
export function runFixture(
  name: string,
  opts: {
    env?: Record<string, string | undefined>;
    onStdout?: (chunk: string, child: ReturnType<typeof spawn>) => void;
    /** Modules to --import before the fixture, as a service's start command does. */
    preload?: string[];
  } = {},
): Promise<ChildRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...(opts.preload ?? []).flatMap((m) => ['--import', m]), fixture(name)], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => {
    stdout += c;
    opts.onStdout?.(c, child);
  });
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  return new Promise((resolve) =>
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    }),
  );
}
