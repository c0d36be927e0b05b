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
    /** Each whole `MARK <text>` line the fixture prints, as it arrives. */
    onMark?: (mark: string, child: ReturnType<typeof spawn>) => void;
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
  let marked = 0;
  child.stdout.setEncoding('utf8').on('data', (c: string) => {
    stdout += c;
    opts.onStdout?.(c, child);
    const lines = stdout.split('\n').slice(0, -1);
    for (const line of lines.slice(marked)) if (line.startsWith('MARK ')) opts.onMark?.(line.slice(5), child);
    marked = lines.length;
  });
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  // wait-ok: a time-out guard against a fixture that never exits, not a wait
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  return new Promise((resolve) =>
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    }),
  );
}
