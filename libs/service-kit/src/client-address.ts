import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';

/** Whom a service believes about X-Forwarded-For: the gateway, on loopback or a private network (as createServiceApp's 'trust proxy'). */
export const SERVICE_TRUSTED_PROXIES = 'loopback, uniquelocal';

const trustServiceProxies = proxyaddr.compile(SERVICE_TRUSTED_PROXIES.split(', '));

/**
 * The client's address for a request Express does not see (a WebSocket upgrade): the socket's peer,
 * or, when that peer is a trusted proxy, the address the proxy forwarded. Behind the gateway the
 * socket's peer is the gateway itself, so per-address limits keyed on it would lump every visitor together.
 */
export function clientAddress(req: IncomingMessage, trust: string | ((addr: string, i: number) => boolean) = trustServiceProxies): string {
  const fn = typeof trust === 'string' ? proxyaddr.compile(trust.split(',').map((s) => s.trim())) : trust;
  return proxyaddr(req as Parameters<typeof proxyaddr>[0], fn);
}
