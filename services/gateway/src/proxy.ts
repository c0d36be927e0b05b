import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { Request, Response, NextFunction } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { redactUrl, type Logger } from '@wb/service-kit';
import { ERRORS } from '@wb/contracts';
import type { ReplicaSet } from './replicas.ts';
import { boardInBody, boardOfRealtimeBody, MAX_ROUTED_BODY_BYTES } from './domain/rendezvous.ts';

type Handler = (req: Request, res: Response, next: NextFunction) => void;
type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/**
 * Where a service is reached: over HTTP at `url` (its own process or pod), or in this process
 * (`local`, the embedded mode), which skips a loopback hop on every call.
 */
export interface ServiceTarget {
  url?: string;
  /** Realtime only: several replicas, each board's requests and sockets to one of them. */
  replicas?: ReplicaSet;
  local?: { app: (req: IncomingMessage, res: Response, next?: NextFunction) => void; handleUpgrade?: UpgradeHandler };
}

export interface Forwarder {
  http: Handler;
  upgrade?: UpgradeHandler;
}

type RoutedRequest = IncomingMessage & {
  routedTo?: string;
  /** A body read here to find its board, forwarded as it came. */
  rawBody?: Buffer;
  bodyBoard?: string;
};

/** Errors that say the replica is not there (as opposed to a request that went wrong on it). */
const UNREACHABLE = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN']);

const pathOf = (req: IncomingMessage) => (req.url ?? '').split('?')[0] ?? '';

function unavailable(res: Response, requestId?: string) {
  if (res.headersSent) return;
  res.status(503).json({ error: ERRORS.SERVICE_UNAVAILABLE.message, code: 'SERVICE_UNAVAILABLE', requestId });
}

/**
 * Closes `socket` unless the upstream writes its answer to the upgrade (101, or an error status)
 * within `ms`; `onTimeout` runs first, `onAnswer` when it comes. The first write to the client's
 * socket is that answer.
 */
function answerWithin(socket: Duplex, ms: number, onTimeout: () => void, onAnswer: () => void): void {
  const timer = setTimeout(() => {
    onTimeout();
    socket.destroy();
  }, ms);
  const write = socket.write;
  socket.write = function (this: Duplex, ...args: Parameters<Duplex['write']>) {
    clearTimeout(timer);
    socket.write = write;
    onAnswer();
    return write.apply(this, args);
  } as Duplex['write'];
  socket.once('close', () => clearTimeout(timer));
}

export function forwarderFor(name: string, target: ServiceTarget | undefined, logger: Logger, upgradeTimeoutMs = 10_000): Forwarder {
  if (target?.local) {
    const local = target.local;
    return {
      http: (req, res, next) => local.app(req, res, next),
      upgrade: local.handleUpgrade,
    };
  }
  if (target?.url || target?.replicas) {
    const replicas = target.replicas;
    const proxy = createProxyMiddleware<Request, Response>({
      target: target.url,
      router: replicas
        ? (req) => {
            const chosen = replicas.targetFor(pathOf(req), (req as RoutedRequest).bodyBoard);
            (req as RoutedRequest).routedTo = chosen;
            // Never undefined here: the forwarder below answers 503 while no replica is known.
            return chosen!;
          }
        : undefined,
      // Upgrades are routed by the gateway itself (handleUpgrade); with ws: true every proxy would
      // subscribe to the server's upgrade event and grab sockets meant for other services.
      ws: false,
      xfwd: true,
      proxyTimeout: 60_000,
      on: {
        // The body was read to route it: the stream has ended, so its bytes are written here.
        proxyReq: (proxyReq, req) => {
          const body = (req as RoutedRequest).rawBody;
          if (body) proxyReq.write(body);
        },
        error: (err, req, resOrSocket) => {
          const routedTo = (req as RoutedRequest).routedTo;
          if (replicas && routedTo && UNREACHABLE.has((err as NodeJS.ErrnoException).code ?? '')) replicas.failed(routedTo);
          logger.warn({ err: (err as Error).message, service: name, url: redactUrl(req.url ?? '') }, 'upstream error');
          if ('status' in resOrSocket && typeof resOrSocket.status === 'function') {
            unavailable(resOrSocket as Response, (req as Request).id);
          } else {
            (resOrSocket as Duplex).destroy();
          }
        },
      },
    });
    const none = () => replicas !== undefined && replicas.live().length === 0;
    return {
      http: (req, res, next) => {
        if (none()) return unavailable(res, req.id);
        const length = Number(req.headers['content-length']);
        if (!replicas || !boardInBody(req.method, pathOf(req)) || !(length > 0 && length <= MAX_ROUTED_BODY_BYTES)) {
          return void proxy(req, res, next);
        }
        // Force-save and reactions go to the replica that holds their board's sockets (no relay
        // hop, no second copy of the board loaded for one call); a chunked or long body is not
        // held back for that and goes to any replica.
        // Rejects when the client goes away mid-body.
        buffer(req).then(
          (body) => {
            Object.assign(req as RoutedRequest, { rawBody: body, bodyBoard: boardOfRealtimeBody(body) });
            // The client's "Expect: 100-continue" was answered here (Node does); passed on, it
            // would make the proxy skip the hook that writes the body.
            delete req.headers.expect;
            void proxy(req, res, next);
          },
          () => res.destroy(),
        );
      },
      upgrade: (req, socket, head) => {
        if (none()) return void socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\r\n');
        answerWithin(socket, upgradeTimeoutMs, () => {
          const routedTo = (req as RoutedRequest).routedTo;
          logger.warn({ service: name, upstream: routedTo, url: redactUrl(req.url ?? '') }, 'upstream did not answer the upgrade in time');
          if (replicas && routedTo) replicas.failed(routedTo);
        }, () => {
          const routedTo = (req as RoutedRequest).routedTo;
          if (replicas && routedTo) replicas.track(routedTo, socket);
        });
        proxy.upgrade(req as Request, socket as never, head);
      },
    };
  }
  return { http: (req, res) => unavailable(res, req.id) };
}
