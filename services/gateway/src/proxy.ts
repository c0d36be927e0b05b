import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Request, Response, NextFunction } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { redactUrl, type Logger } from '@wb/service-kit';
import { ERRORS } from '@wb/contracts';

type Handler = (req: Request, res: Response, next: NextFunction) => void;
type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/**
 * Where a service is reached: over HTTP at `url` (its own process or pod), or in this process
 * (`local`, the embedded mode), which skips a loopback hop on every call.
 */
export interface ServiceTarget {
  url?: string;
  local?: { app: (req: IncomingMessage, res: Response, next?: NextFunction) => void; handleUpgrade?: UpgradeHandler };
}

export interface Forwarder {
  http: Handler;
  upgrade?: UpgradeHandler;
}

function unavailable(res: Response, requestId?: string) {
  if (res.headersSent) return;
  res.status(503).json({ error: ERRORS.SERVICE_UNAVAILABLE.message, code: 'SERVICE_UNAVAILABLE', requestId });
}

export function forwarderFor(name: string, target: ServiceTarget | undefined, logger: Logger): Forwarder {
  if (target?.local) {
    const local = target.local;
    return {
      http: (req, res, next) => local.app(req, res, next),
      upgrade: local.handleUpgrade,
    };
  }
  if (target?.url) {
    const proxy = createProxyMiddleware<Request, Response>({
      target: target.url,
      // Upgrades are routed by the gateway itself (handleUpgrade); with ws: true every proxy would
      // subscribe to the server's upgrade event and grab sockets meant for other services.
      ws: false,
      xfwd: true,
      proxyTimeout: 60_000,
      on: {
        error: (err, req, resOrSocket) => {
          logger.warn({ err: (err as Error).message, service: name, url: redactUrl(req.url ?? '') }, 'upstream error');
          if ('status' in resOrSocket && typeof resOrSocket.status === 'function') {
            unavailable(resOrSocket as Response, (req as Request).id);
          } else {
            (resOrSocket as Duplex).destroy();
          }
        },
      },
    });
    return {
      http: (req, res, next) => void proxy(req, res, next),
      upgrade: (req, socket, head) => proxy.upgrade(req as Request, socket as never, head),
    };
  }
  return { http: (req, res) => unavailable(res, req.id) };
}
