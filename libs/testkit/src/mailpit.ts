/**
 * Mailpit (github.com/axllent/mailpit), the development and test mail server: it accepts every mail
 * over SMTP and shows it in a web UI and a REST API (read in tests through `mailpit-api`). Built
 * once by scripts/ensure-infra.mjs (`go install`, cached by version outside the repo) and linked
 * into .tools/bin.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { freePort } from '@wb/db';
import { findBinary, tempDir, waitForPort } from './processes.ts';

export interface MailpitHandle {
  /** smtp://127.0.0.1:<port> (no TLS, no authentication: loopback only). */
  smtpUrl: string;
  /** The web UI and the REST API (http://127.0.0.1:<port>). */
  apiUrl: string;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
  /** Its process (the runners' supervisor lists it in the admin panel). */
  pid?: number;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A Mailpit left by a runner that was SIGKILLed (no exit hook runs then) still holds its store: it
 * is stopped when its parent is gone (init adopted it) and it is really a mailpit.
 */
function stopOrphan(pidFile: string): void {
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  if (!pid || !alive(pid)) return;
  let status: string;
  let cmdline: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return;
  }
  const ppid = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1] ?? 0);
  if (ppid === 1 && cmdline.includes('mailpit')) process.kill(pid, 'SIGTERM');
}

/**
 * Starts Mailpit on two free loopback ports (SMTP and web UI/API). `dataDir`: where its store lives
 * (kept across starts, e.g. the embedded runner's .data/mailpit); default a temporary directory that
 * stop() removes.
 */
export async function startMailpit(opts: { dataDir?: string; detached?: boolean } = {}): Promise<MailpitHandle> {
  const [smtpPort, httpPort] = [await freePort(), await freePort()];
  const dir = opts.dataDir ?? (await tempDir('mailpit'));
  const pidFile = path.join(dir, 'mailpit.pid');
  stopOrphan(pidFile);
  const child = spawn(
    findBinary('mailpit'),
    [
      '--smtp',
      `127.0.0.1:${smtpPort}`,
      '--listen',
      `127.0.0.1:${httpPort}`,
      '--database',
      path.join(dir, 'mailpit.db'),
      // Any SMTP login (or none) is taken, so an SMTP_URL with credentials works against it too.
      '--smtp-auth-accept-any',
      '--smtp-auth-allow-insecure',
      '--disable-version-check',
      '--quiet',
    ],
    // Detached (its own process group) for the runners: Ctrl+C reaches only the runner, which stops it last.
    { stdio: ['ignore', 'ignore', 'inherit'], detached: opts.detached ?? false },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  if (child.pid) writeFileSync(pidFile, String(child.pid));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    if (!opts.dataDir) await rm(dir, { recursive: true, force: true });
    else await rm(pidFile, { force: true });
  };
  // A runner that exits without stopping it (an uncaught error) takes it along.
  const onExit = () => child.kill('SIGKILL');
  process.once('exit', onExit);
  exited.then(() => process.off('exit', onExit));
  try {
    await Promise.race([
      Promise.all([waitForPort(smtpPort, 30_000), waitForPort(httpPort, 30_000)]),
      exited.then(() => Promise.reject(new Error(`mailpit exited at start (code ${child.exitCode})`))),
    ]);
  } catch (err) {
    await stop();
    throw err;
  }
  return { smtpUrl: `smtp://127.0.0.1:${smtpPort}`, apiUrl: `http://127.0.0.1:${httpPort}`, stop, pid: child.pid };
}
