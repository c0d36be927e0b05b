import { randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { listen, type RunningServer } from '@wb/service-kit';

/**
 * The runners' supervisor (local cluster and embedded mode): an HTTP endpoint on 127.0.0.1 that the
 * admin-monitoring service's local adapter (CONTAINER_RUNTIME=local, LOCAL_SUPERVISOR_URL) asks for
 * the product's processes and through which the system update restarts one service at a time.
 * Every call carries `Authorization: Bearer <token>` (LOCAL_SUPERVISOR_TOKEN); anything else is 401.
 *
 * GET  /processes            → { processes: SupervisedProcessInfo[] }  (OS processes: what the panel shows)
 * GET  /services             → { services: [{ name }] }                (restartable, in restart order)
 * POST /services/:name/restart → 200 { name } once the new instance answers and the old one is gone;
 *                              404 unknown name; 500 { error } (Russian) when the restart failed.
 * Restarts run one at a time (a second waits for the first).
 */

export interface SupervisedProcessInfo {
  name: string;
  pid: number | null;
  /** service, gateway, product (the embedded process), postgres, nats, ferretdb, mailpit. */
  role: string;
  /** What runs: the package or the binary. */
  image: string;
  /** Unix seconds the runner started it. */
  started: number;
}

export interface RestartableUnit {
  name: string;
  restart(): Promise<void>;
}

export interface SupervisorSource {
  processes(): SupervisedProcessInfo[];
  /** Restart order: the admin-monitoring service itself comes last (it runs the update). */
  services(): RestartableUnit[];
}

export interface SupervisorHandle {
  url: string;
  token: string;
  stop(): Promise<void>;
}

export const SUPERVISOR_UNKNOWN = 'Неизвестный процесс';
export const SUPERVISOR_UNAUTHORIZED = 'Требуется токен супервизора';

const MAX_BODY_BYTES = 4096;

function authorized(req: http.IncomingMessage, token: Buffer): boolean {
  const header = req.headers.authorization ?? '';
  const m = /^Bearer (.+)$/.exec(header);
  if (!m) return false;
  const given = Buffer.from(m[1]!);
  return given.length === token.length && timingSafeEqual(given, token);
}

function send(res: http.ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export async function startSupervisor(source: SupervisorSource, opts: { token?: string; onError?: (err: unknown, unit: string) => void } = {}): Promise<SupervisorHandle> {
  const token = opts.token ?? randomBytes(32).toString('base64url');
  const tokenBytes = Buffer.from(token);
  let queue: Promise<unknown> = Promise.resolve();

  const server = http.createServer((req, res) => {
    // Nothing here takes a body; a caller sending one large is cut off rather than buffered.
    let received = 0;
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > MAX_BODY_BYTES) req.destroy();
    });
    if (!authorized(req, tokenBytes)) return send(res, 401, { error: SUPERVISOR_UNAUTHORIZED, code: 'TOKEN_MISSING' });
    const url = new URL(req.url ?? '/', 'http://supervisor');
    if (req.method === 'GET' && url.pathname === '/processes') return send(res, 200, { processes: source.processes() });
    if (req.method === 'GET' && url.pathname === '/services') return send(res, 200, { services: source.services().map((s) => ({ name: s.name })) });
    const m = /^\/services\/([^/]+)\/restart$/.exec(url.pathname);
    if (req.method === 'POST' && m) {
      let name: string;
      try {
        name = decodeURIComponent(m[1]!);
      } catch {
        return send(res, 404, { error: SUPERVISOR_UNKNOWN, code: 'NOT_FOUND' });
      }
      const unit = source.services().find((s) => s.name === name);
      if (!unit) return send(res, 404, { error: SUPERVISOR_UNKNOWN, code: 'NOT_FOUND' });
      const run = queue.then(() => unit.restart());
      queue = run.catch(() => {});
      run.then(
        () => send(res, 200, { name }),
        (err: unknown) => {
          opts.onError?.(err, name);
          send(res, 500, { error: err instanceof Error ? err.message : String(err), code: 'RESTART_FAILED' });
        },
      );
      return;
    }
    send(res, 404, { error: 'Ресурс не найден', code: 'NOT_FOUND' });
  });
  // A restart can take a while (a service's migrations, a busy machine): no request timeout here.
  server.requestTimeout = 0;
  const running: RunningServer = await listen(server, 0, '127.0.0.1');
  return { url: `http://127.0.0.1:${running.port}`, token, stop: () => running.close() };
}
