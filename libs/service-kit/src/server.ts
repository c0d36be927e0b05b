import http from 'node:http';
import net from 'node:net';
import type { RequestListener } from 'node:http';
import type { Logger } from 'pino';

export type ShutdownHook = () => Promise<void> | void;

export interface RunningServer {
  server: http.Server;
  port: number;
  close(): Promise<void>;
  /**
   * Hands the port over to a successor (listen's reusePort): stops accepting connections and, for
   * `ms`, answers every request on a kept-alive connection with `Connection: close`, so callers
   * move to the successor on their next request instead of finding their idle connection cut
   * under them. close() then ends what is left.
   */
  drain?(ms: number): Promise<void>;
}

export interface ListenOptions {
  /**
   * SO_REUSEPORT (Linux): a second process may listen on the same port while the first still does,
   * and the kernel spreads new connections between them. The local cluster's rolling restart starts
   * a service's new process beside the old one this way, so the port never stops answering.
   */
  reusePort?: boolean;
}

/** Listens on `port` (0 = any free port) on all interfaces or `host`. */
export async function listen(handler: RequestListener | http.Server, port: number, host?: string, opts: ListenOptions = {}): Promise<RunningServer> {
  const server = handler instanceof http.Server ? handler : http.createServer(handler);
  server.keepAliveTimeout = 65_000; // longer than typical load balancer idle timeouts
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, ...(opts.reusePort ? { reusePort: true } : {}) }, () => resolve());
  });
  const actual = (server.address() as { port: number }).port;
  let draining = false;
  let closed: Promise<void> | undefined;
  // Handing over (reusePort): net.Server's close, not http.Server's, which also cuts every idle
  // kept-alive connection at once while a caller may be sending its next request on it.
  const closeListener = opts.reusePort ? net.Server.prototype.close : http.Server.prototype.close;
  const stopAccepting = () => (closed ??= new Promise<void>((resolve) => closeListener.call(server, () => resolve())));
  if (opts.reusePort) {
    server.prependListener('request', (_req, res) => {
      if (draining && !res.headersSent) res.shouldKeepAlive = false;
    });
  }
  return {
    server,
    port: actual,
    drain: async (ms) => {
      draining = true;
      void stopAccepting();
      await new Promise((r) => setTimeout(r, ms));
    },
    close: () =>
      new Promise<void>((resolve) => {
        void stopAccepting().then(() => resolve());
        server.closeIdleConnections();
        // A keep-alive connection busy at close time turns idle once its answer is sent; without
        // this sweep it would hold the close open until the grace timer below.
        const sweep = setInterval(() => server.closeIdleConnections(), 50);
        sweep.unref();
        server.once('close', () => clearInterval(sweep));
        // In-flight requests get a grace period, then remaining sockets are dropped.
        setTimeout(() => server.closeAllConnections(), 10_000).unref();
      }),
  };
}

/**
 * Runs the hooks in order on SIGTERM or SIGINT (stop accepting, drain, flush, close pools), then
 * exits. Further signals while stopping are logged and ignored: Ctrl+C reaches every process of
 * the group and `npm start` forwards it too, so a second signal is normal and must not cut a flush
 * short. Only hooks taking longer than `timeoutMs` force the exit.
 */
export function onShutdown(logger: Logger, hooks: ShutdownHook[], timeoutMs = 25_000): void {
  let stopping = false;
  const run = async (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, 'already stopping; signal ignored');
      return;
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error('shutdown took too long, exiting');
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    for (const hook of hooks) {
      try {
        await hook();
      } catch (err) {
        logger.error({ err }, 'shutdown hook failed');
      }
    }
    logger.info('stopped');
    // A line still buffered (stdout a full pipe) would be lost to process.exit: flush it first.
    const exit = () => process.exit(0);
    setTimeout(exit, 1_000).unref();
    try {
      logger.flush(exit);
    } catch {
      exit();
    }
  };
  process.on('SIGTERM', () => void run('SIGTERM'));
  process.on('SIGINT', () => void run('SIGINT'));
}
