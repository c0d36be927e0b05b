import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

export interface OwnedProcess {
  name: string;
  child: ChildProcess;
  /** SIGTERM (a graceful stop), then waits for the exit. */
  stop(): Promise<void>;
  /** SIGKILL, as a crash would. */
  kill(): Promise<void>;
  exited: Promise<void>;
}

const owned = new Set<ChildProcess>();
let exitHookInstalled = false;

/**
 * Starts a child in its own process group. A signal to the terminal's group (Ctrl+C,
 * `kill -- -<pgid>`) then reaches only the runner, which stops the children in order: services
 * before the infrastructure they flush into. Whatever way the runner exits, its children go too.
 */
export function spawnOwned(name: string, command: string, args: string[], opts: SpawnOptions = {}): OwnedProcess {
  const child = spawn(command, args, { ...opts, detached: true });
  owned.add(child);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const c of owned) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    });
  }
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      owned.delete(child);
      resolve();
    }),
  );
  const signal = async (sig: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(sig);
    await exited;
  };
  return { name, child, exited, stop: () => signal('SIGTERM'), kill: () => signal('SIGKILL') };
}
