import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Request, Response, NextFunction } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { redactUrl, type Logger } from '@wb/service-kit';
import { ERRORS } from '@wb/contracts';
import type { ReplicaSet } from './replicas.ts';

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

type RoutedRequest = IncomingMessage & { routedTo?: string };

/** Errors that say the replica is not there (as opposed to a request that went wrong on it). */
const UNREACHABLE = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN']);

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
            const chosen = replicas.targetFor((req.url ?? '').split('?')[0] ?? '');
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
      http: (req, res, next) => (none() ? unavailable(res, req.id) : void proxy(req, res, next)),
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
