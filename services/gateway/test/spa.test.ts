import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spaRouter } from '../src/spa.ts';

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** Raw GET: fetch() would send its own Accept-Encoding and decompress, hiding what is under test. */
function get(base: string, pathname: string, acceptEncoding?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      `${base}${pathname}`,
      { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
  });
}

describe('SPA static serving', () => {
  const js = 'console.log("' + 'x'.repeat(4000) + '");';
  let dir = '';
  let server: http.Server;
  let base = '';

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'wb-spa-static-'));
    await mkdir(path.join(dir, 'assets'));
    await writeFile(path.join(dir, 'index.html'), '<!doctype html><title>SPA</title>');
    await writeFile(path.join(dir, 'assets', 'app-abc123.js'), js);
    await writeFile(path.join(dir, 'assets', 'app-abc123.js.br'), brotliCompressSync(js));
    await writeFile(path.join(dir, 'assets', 'app-abc123.js.gz'), gzipSync(js));
    await writeFile(path.join(dir, 'assets', 'small-1.css'), 'a{}');
    await writeFile(path.join(dir, 'sw.js'), js);
    await writeFile(path.join(dir, 'sw.js.br'), brotliCompressSync(js));
    await writeFile(path.join(dir, 'favicon.svg'), '<svg/>');
    const app = express();
    app.use(spaRouter(dir));
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await rm(dir, { recursive: true, force: true });
  });

  it('sends the brotli twin when the browser accepts br, cached for a year as immutable', async () => {
    const res = await get(base, '/assets/app-abc123.js', 'gzip, deflate, br');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.vary).toMatch(/Accept-Encoding/i);
    expect(res.body.length).toBeLessThan(js.length / 10);
  });

  it('falls back to gzip, then to the plain file', async () => {
    const gz = await get(base, '/assets/app-abc123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    const plain = await get(base, '/assets/app-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(js);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('serves a small asset that has no compressed twin as it is', async () => {
    const res = await get(base, '/assets/small-1.css', 'br');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.toString()).toBe('a{}');
  });

  it('answers 404 for a missing hashed asset instead of index.html', async () => {
    const res = await get(base, '/assets/missing-999.js', 'br');
    expect(res.status).toBe(404);
    expect(res.body.toString()).not.toContain('<title>SPA');
  });

  it('serves index.html with no-cache for client routes, malformed percent-encoding included', async () => {
    for (const route of ['/', '/dashboard', '/board/42', '/board/%00%ud800', '/board/abc%', '/dashboard/%ZZ']) {
      const res = await get(base, route, 'br');
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body.toString(), route).toContain('<title>SPA</title>');
    }
  });

  it('serves the service worker with no-cache, compressed or not; other top-level files for an hour', async () => {
    for (const enc of ['br', undefined]) {
      const res = await get(base, '/sw.js', enc);
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(enc);
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.headers['cache-control']).toBe('no-cache');
    }
    expect((await get(base, '/favicon.svg', 'br')).headers['cache-control']).toBe('public, max-age=3600');
  });

  it('a malformed asset path is a 404, not index.html', async () => {
    const res = await get(base, '/assets/app-%E0%A4%A.js', 'br');
    expect(res.status).toBe(404);
  });
});
