import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { WebSocketServer, WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientAddress, createLogger, listen, type RunningServer } from '@wb/service-kit';
import { createGateway, GatewayConfigSchema, routeFor } from '../src/app.ts';

/** A stand-in upstream service that reports what reached it. */
async function upstream(name: string) {
  const app = express();
  app.get('/ready', (_req, res) => {
    res.json({ status: 'ready', checks: { db: true } });
  });
  app.use((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => res.json({ service: name, method: req.method, url: req.url, requestId: req.headers['x-request-id'], body }));
  });
  const server = await listen(app, 0, '127.0.0.1');
  const wss = new WebSocketServer({ noServer: true });
  server.server.on('upgrade', (req, socket, head) =>
    wss.handleUpgrade(req, socket, head, (ws) => {
      if (req.url?.includes('whoami')) return ws.send(`xff=${req.headers['x-forwarded-for']} client=${clientAddress(req)}`);
      ws.send(`hello from ${name} ${req.url}`);
      ws.on('message', (m) => ws.send(`echo ${m}`));
    }),
  );
  return server;
}

describe('route table', () => {
  it('sends each path to its owner', () => {
    expect(routeFor('/api/auth/login')).toBe('auth');
    expect(routeFor('/api/admin/users/1')).toBe('auth');
    expect(routeFor('/api/admin/plans')).toBe('billing');
    expect(routeFor('/api/admin/docker')).toBe('admin');
    expect(routeFor('/api/boards/abc/debug/snapshots')).toBe('realtime');
    expect(routeFor('/api/boards/abc')).toBe('boards');
    expect(routeFor('/api/folders/move-board')).toBe('boards');
    expect(routeFor('/api/tags')).toBe('boards');
    expect(routeFor('/api/billing/plans')).toBe('billing');
    expect(routeFor('/api/export/png')).toBe('export');
    expect(routeFor('/yjs/force-save')).toBe('realtime');
    expect(routeFor('/api/boardsX')).toBeUndefined();
    expect(routeFor('/internal/jwks')).toBeUndefined();
  });
});

describe('gateway over HTTP', () => {
  let auth: RunningServer;
  let boards: RunningServer;
  let realtime: RunningServer;
  let gw: RunningServer;
  let base: string;

  beforeAll(async () => {
    [auth, boards, realtime] = await Promise.all([upstream('auth'), upstream('boards'), upstream('realtime')]);
    const staticDir = await mkdtemp(path.join(os.tmpdir(), 'wb-spa-'));
    await mkdir(path.join(staticDir, 'assets'));
    await writeFile(path.join(staticDir, 'index.html'), '<!doctype html><title>SPA</title>');
    await writeFile(path.join(staticDir, 'assets', 'app-123.js'), 'console.log(1)');
    const config = GatewayConfigSchema.parse({ STATIC_DIR: staticDir, AUTH_RATE_LIMIT_PER_MIN: '3', BODY_LIMIT_BYTES: '1000' });
    const gateway = createGateway({
      config,
      logger: createLogger('gateway', 'silent'),
      targets: {
        auth: { url: `http://127.0.0.1:${auth.port}` },
        boards: { url: `http://127.0.0.1:${boards.port}` },
        realtime: { url: `http://127.0.0.1:${realtime.port}` },
      },
    });
    gw = await listen(gateway.app, 0, '127.0.0.1');
    gw.server.on('upgrade', (req, socket, head) => gateway.handleUpgrade!(req, socket, head));
    base = `http://127.0.0.1:${gw.port}`;
  });
  afterAll(async () => {
    await Promise.all([gw, auth, boards, realtime].map((s) => s?.close()));
  });

  it('proxies API calls with the full path, body and one request id', async () => {
    const res = await fetch(`${base}/api/boards?search=x`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'req-42' },
      body: '{"title":"a"}',
    });
    const body = await res.json();
    expect(body).toMatchObject({ service: 'boards', method: 'POST', url: '/api/boards?search=x', requestId: 'req-42', body: '{"title":"a"}' });
    expect(res.headers.get('x-request-id')).toBe('req-42');
    // JSON answers carry nosniff; the page-only headers (CSP and friends) are for documents.
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBeNull();
  });

  it('generates a request id and passes it on', async () => {
    const res = await fetch(`${base}/api/auth/profile`);
    const body = await res.json();
    expect(body.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get('x-request-id')).toBe(body.requestId);
  });

  it('answers 503 with a code for a service that is not deployed', async () => {
    const res = await fetch(`${base}/api/billing/plans`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE', error: expect.any(String) });
  });

  it('never routes /internal and answers unknown API paths with 404 JSON', async () => {
    for (const p of ['/internal/jwks', '/api/nothing', '/api']) {
      const res = await fetch(`${base}${p}`);
      expect(res.status, p).toBe(404);
      expect((await res.json()).code).toBe('NOT_FOUND');
    }
  });

  it('refuses bodies over the limit before they reach a service', async () => {
    const res = await fetch(`${base}/api/boards`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'x'.repeat(2000) }),
    });
    expect(res.status).toBe(413);
    expect((await res.json()).code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('rate-limits login attempts per client', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${base}/api/auth/login`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
      codes.push(res.status);
      if (res.status === 429) expect((await res.json()).code).toBe('RATE_LIMITED');
      else await res.arrayBuffer();
    }
    expect(codes.slice(0, 3)).toEqual([200, 200, 200]);
    expect(codes.slice(3)).toEqual([429, 429]);
    // Other auth calls are not limited.
    expect((await fetch(`${base}/api/auth/profile`)).status).toBe(200);
  });

  it('serves the SPA for any other path, with security headers, and caches hashed assets', async () => {
    const page = await fetch(`${base}/some/unknown/route`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>SPA</title>');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const asset = await fetch(`${base}/assets/app-123.js`);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect((await fetch(`${base}/assets/missing.js`)).status).toBe(404);
  });

  it('reports each service in /api/health', async () => {
    const res = await fetch(`${base}/api/health`);
    const body = await res.json();
    expect(res.status).toBe(200);
    expect(body.services.auth.status).toBe('up');
    expect(body.services.billing.status).toBe('not deployed');
  });

  it('proxies WebSocket upgrades under /yjs to realtime and refuses others', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${gw.port}/yjs/board-1?token=t`);
    const first = await new Promise<string>((resolve, reject) => {
      ws.once('message', (m) => resolve(String(m)));
      ws.once('error', reject);
    });
    expect(first).toBe('hello from realtime /yjs/board-1?token=t');
    ws.send('ping');
    expect(await new Promise<string>((r) => ws.once('message', (m) => r(String(m))))).toBe('echo ping');
    ws.close();
    const bad = new WebSocket(`ws://127.0.0.1:${gw.port}/other`);
    await expect(new Promise((resolve, reject) => { bad.once('open', resolve); bad.once('error', reject); })).rejects.toThrow();
  });

  it("passes an upgrade's client address as judged here, never the client's own X-Forwarded-For", async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${gw.port}/yjs/whoami`, { headers: { 'x-forwarded-for': '6.6.6.6', forwarded: 'for=6.6.6.6' } });
    const said = await new Promise<string>((resolve, reject) => {
      ws.once('message', (m) => resolve(String(m)));
      ws.once('error', reject);
    });
    ws.close();
    expect(said).not.toContain('6.6.6.6');
    expect(said).toMatch(/client=(127\.0\.0\.1|::ffff:127\.0\.0\.1)$/);
  });

  it('clientAddress believes X-Forwarded-For only from a proxy on loopback or a private network', () => {
    const req = (peer: string, xff?: string) => ({ socket: { remoteAddress: peer }, connection: { remoteAddress: peer }, headers: xff ? { 'x-forwarded-for': xff } : {} }) as never;
    expect(clientAddress(req('203.0.113.5', '1.2.3.4'))).toBe('203.0.113.5');
    expect(clientAddress(req('10.0.0.7', '198.51.100.9'))).toBe('198.51.100.9');
    expect(clientAddress(req('127.0.0.1', '198.51.100.9, 10.0.0.3'))).toBe('198.51.100.9');
    expect(clientAddress(req('127.0.0.1'))).toBe('127.0.0.1');
  });

  it('still refuses upgrades outside /yjs', async () => {
    const bad = new WebSocket(`ws://127.0.0.1:${gw.port}/other`);
    await expect(new Promise((resolve, reject) => { bad.once('open', resolve); bad.once('error', reject); })).rejects.toThrow();
  });
});
