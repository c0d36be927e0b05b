import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { WebSocketServer, WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, createRegistry, listen, type Registry, type RunningServer } from '@wb/service-kit';
import { eventually } from '@wb/testkit';
import { boardOfRealtimePath, createGateway, GatewayConfigSchema, rendezvous } from '../src/app.ts';
import { ReplicaSet } from '../src/replicas.ts';

describe('rendezvous hashing', () => {
  const boards = Array.from({ length: 300 }, (_, i) => `board-${i}`);

  it('spreads boards over the replicas and moves only the boards of one that leaves', () => {
    const three = ['http://10.0.0.1:8080', 'http://10.0.0.2:8080', 'http://10.0.0.3:8080'];
    const before = new Map(boards.map((b) => [b, rendezvous(b, three)!]));
    for (const r of three) expect([...before.values()].filter((v) => v === r).length).toBeGreaterThan(60);
    // Order of the list does not matter: every gateway agrees.
    for (const b of boards) expect(rendezvous(b, [...three].reverse())).toBe(before.get(b));
    const two = three.slice(0, 2);
    for (const b of boards) {
      const now = rendezvous(b, two)!;
      if (before.get(b) !== three[2]) expect(now).toBe(before.get(b));
      else expect(two).toContain(now);
    }
    expect(rendezvous('x', [])).toBeUndefined();
  });

  it('finds the board in the paths that name one', () => {
    expect(boardOfRealtimePath('/yjs/b-1')).toBe('b-1');
    expect(boardOfRealtimePath('/yjs/b-1/')).toBe('b-1');
    expect(boardOfRealtimePath('/yjs/images/b-2')).toBe('b-2');
    expect(boardOfRealtimePath('/yjs/images/b-2/abc')).toBe('b-2');
    expect(boardOfRealtimePath('/api/boards/b-3/debug/snapshots')).toBe('b-3');
    expect(boardOfRealtimePath('/yjs/force-save')).toBeUndefined();
    expect(boardOfRealtimePath('/yjs/reactions')).toBeUndefined();
    expect(boardOfRealtimePath('/yjs/a/b/c')).toBeUndefined();
    expect(boardOfRealtimePath(`/yjs/${'x'.repeat(65)}`)).toBeUndefined();
  });
});

/** A stand-in realtime replica: answers /ready (as `ready` says), and each socket with its own name. */
async function replica(name: string, port = 0) {
  const ready = { mode: 'ok' as 'ok' | 'unavailable' | 'silent', probes: 0 };
  const server = http.createServer((req, res) => {
    if (req.url === '/ready') ready.probes++;
    if (req.url === '/ready' && ready.mode === 'silent') return; // a stopped process: no answer at all
    if (req.url === '/ready' && ready.mode === 'unavailable') return void res.writeHead(503).end('{}');
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ replica: name, url: req.url, body: Buffer.concat(chunks).toString('latin1') }));
    });
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => wss.handleUpgrade(req, socket, head, (ws) => ws.send(name)));
  const running = await listen(server, port, '127.0.0.1');
  return {
    name,
    ready,
    port: running.port,
    url: `http://127.0.0.1:${running.port}`,
    /** Gone as a killed process is: sockets dropped, the port refusing. */
    async kill() {
      for (const c of wss.clients) c.terminate();
      await running.close();
    },
  };
}

const quiet = createLogger('gateway', 'silent');

/** A gateway over `set`, listening with its upgrades wired, as the runner wires them. */
async function gatewayOver(set: ReplicaSet, env: Record<string, string> = {}, registry?: Registry) {
  const config = GatewayConfigSchema.parse(env);
  const gateway = createGateway({ config, logger: quiet, targets: { realtime: { replicas: set } }, registry });
  await gateway.start?.();
  const server = await listen(gateway.app, 0, '127.0.0.1');
  server.server.on('upgrade', (req, socket, head) => gateway.handleUpgrade!(req, socket, head));
  return server;
}

/** Which replica a socket for `board` reached through the gateway, or the close/error that met it. */
function socketReaches(gatewayPort: number, board: string): Promise<string> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${gatewayPort}/yjs/${board}?token=t`);
    ws.once('message', (m) => {
      resolve(String(m));
      ws.close();
    });
    ws.once('error', () => resolve('refused'));
  });
}

/**
 * Twelve board names that land on every replica. The replicas listen on ports the OS picks, so
 * the first twelve names leave one replica empty in about one run in forty (3 × (2/3)^12).
 */
function twelveBoardsOverAll(urls: string[]): string[] {
  const names = Array.from({ length: 200 }, (_, i) => `board-${i}`);
  const firstOnEach = urls.map((u) => names.find((b) => rendezvous(b, urls) === u)!);
  const rest = names.filter((b) => !firstOnEach.includes(b));
  return [...firstOnEach, ...rest].slice(0, 12);
}

describe('gateway with several realtime replicas', () => {
  let replicas: Array<Awaited<ReturnType<typeof replica>>>;
  let set: ReplicaSet;
  let gw: RunningServer;
  let registry: Registry;
  let boards: string[];

  beforeAll(async () => {
    replicas = await Promise.all(['r1', 'r2', 'r3'].map((n) => replica(n)));
    boards = twelveBoardsOverAll(replicas.map((r) => r.url).sort());
    set = new ReplicaSet({ urls: replicas.map((r) => r.url), logger: quiet, probeEveryMs: 100, downForMs: 60_000 });
    registry = createRegistry('gateway');
    gw = await gatewayOver(set, {}, registry);
  });
  afterAll(async () => {
    set?.stop();
    await gw?.close();
    await Promise.all(replicas.map((r) => r.kill().catch(() => {})));
  });

  const byName = (url: string) => replicas.find((r) => r.url === url)!.name;

  it("puts every socket of a board on that board's replica, and its HTTP calls too", async () => {
    const where = new Map<string, string>();
    for (const b of boards) {
      const first = await socketReaches(gw.port, b);
      expect(first).toBe(byName(rendezvous(b, replicas.map((r) => r.url).sort())!));
      for (let i = 0; i < 3; i++) expect(await socketReaches(gw.port, b)).toBe(first);
      where.set(b, first);
    }
    // The twelve boards use all three replicas (chosen so in beforeAll: the ports are the OS's).
    expect(new Set(where.values()).size).toBe(3);
    const image = (await (await fetch(`http://127.0.0.1:${gw.port}/yjs/images/${boards[0]}/abc`)).json()) as { replica: string; url: string };
    expect(image).toEqual({ replica: where.get(boards[0]!), url: `/yjs/images/${boards[0]}/abc`, body: '' });
  });

  it("sends force-save and reactions to the replica of the board their body names, the body unchanged", async () => {
    const post = async (path: string, body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
      (await (await fetch(`http://127.0.0.1:${gw.port}${path}`, { method: 'POST', headers, body })).json()) as { replica: string; url: string; body: string };
    const where = (b: string) => byName(rendezvous(b, replicas.map((r) => r.url).sort())!);
    for (const b of boards) {
      // A lone surrogate escaped, a NUL escaped: bytes as they came, the replica judges them.
      const reaction = `{"boardId":"${b}","objectId":"o\\ud800\\u0000","emoji":"👍"}`;
      const got = await post('/yjs/reactions', reaction);
      expect(got).toEqual({ replica: where(b), url: '/yjs/reactions', body: Buffer.from(reaction).toString('latin1') });
      expect((await post('/yjs/force-save?x=1', JSON.stringify({ boardId: b, clearData: true }))).replica).toBe(where(b));
    }
    // No board to be found: forwarded all the same (to some replica), bytes unchanged, for it to answer.
    const seen = new Set<string>();
    for (const body of ['{"boardId":', '{"boardId":"../x"}', 'null', new Uint8Array([0xff, 0xfe, 0x00])]) {
      const got = await post('/yjs/reactions', body);
      expect(got.body).toBe(Buffer.from(body).toString('latin1'));
      seen.add(got.replica);
    }
    expect(seen.size).toBeGreaterThan(1);
    // A chunked body is not held back to be read: it still arrives whole.
    const chunked = await new Promise<{ body: string }>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: gw.port, path: '/yjs/reactions', method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve(JSON.parse(text)));
      });
      req.on('error', reject);
      req.write('{"boardId":');
      req.end(`"${boards[0]}"}`);
    });
    expect(chunked.body).toBe(`{"boardId":"${boards[0]}"}`);
    // curl asks "Expect: 100-continue" for bodies over 1 KiB: the body still arrives whole.
    const long = JSON.stringify({ boardId: boards[1], objectId: 'x'.repeat(2_000), emoji: '👍' });
    const expected = await new Promise<{ replica: string; body: string }>((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port: gw.port, path: '/yjs/reactions', method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(long), expect: '100-continue' } },
        (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve(JSON.parse(text)));
        },
      );
      req.on('continue', () => req.end(long));
      req.on('error', reject);
    });
    expect(expected).toEqual({ replica: where(boards[1]!), url: '/yjs/reactions', body: Buffer.from(long).toString('latin1') });
  });

  it('moves only the boards of a replica that dies, and brings them back when it returns', async () => {
    const urls = replicas.map((r) => r.url).sort();
    const victim = replicas.find((r) => r.name === byName(rendezvous(boards[0]!, urls)!))!;
    const before = new Map(boards.map((b) => [b, byName(rendezvous(b, urls)!)]));
    await victim.kill();
    // The first socket to a dead replica is refused (the client's provider tries again); the
    // gateway then passes that replica over.
    let reached = await socketReaches(gw.port, boards[0]!);
    if (reached === 'refused') reached = await socketReaches(gw.port, boards[0]!);
    expect(reached).not.toBe(victim.name);
    expect(['r1', 'r2', 'r3']).toContain(reached);
    // What an operator sees meanwhile: realtime still up, the dead replica down.
    const health = (await (await fetch(`http://127.0.0.1:${gw.port}/api/health`)).json()) as { services: { realtime: { status: string; replicas: Record<string, string> } } };
    expect(health.services.realtime.status).toBe('up');
    expect(health.services.realtime.replicas).toEqual(Object.fromEntries(urls.map((u) => [u, u === victim.url ? 'down' : 'up'])));
    const gauge = await registry.getSingleMetric('gateway_realtime_replicas')!.get();
    expect(Object.fromEntries(gauge.values.map((v) => [v.labels.state, v.value]))).toEqual({ up: 2, down: 1 });
    for (const b of boards) {
      const now = await socketReaches(gw.port, b);
      if (before.get(b) === victim.name) expect(now).toBe(byName(rendezvous(b, urls.filter((u) => u !== victim.url))!));
      else expect(now).toBe(before.get(b));
    }

    // Back on its port: the next /ready probe (every 100 ms here) returns its boards to it.
    const back = await replica(victim.name, victim.port);
    replicas = replicas.map((r) => (r === victim ? back : r));
    await eventually(async () => (await socketReaches(gw.port, boards[0]!)) === victim.name, { timeoutMs: 5_000, what: 'the replica to get its boards back' });
    for (const b of boards) expect(await socketReaches(gw.port, b)).toBe(before.get(b));
  });

  it('answers 503 SERVICE_UNAVAILABLE while no replica is known', async () => {
    const server = await gatewayOver(new ReplicaSet({ urls: [], logger: quiet }));
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/yjs/images/b/abc`);
      expect(res.status).toBe(503);
      expect(((await res.json()) as { code: string }).code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      await server.close();
    }
  });

  it('refuses a replica list that is not http(s) URLs', () => {
    expect(() => GatewayConfigSchema.parse({ REALTIME_REPLICA_URLS: 'ftp://x:1' })).toThrow();
    expect(() => GatewayConfigSchema.parse({ REALTIME_REPLICA_URLS: 'not a url' })).toThrow();
    expect(GatewayConfigSchema.parse({ REALTIME_REPLICA_URLS: ' http://a:1 ,, http://b:2 ' }).REALTIME_REPLICA_URLS).toEqual(['http://a:1', 'http://b:2']);
  });
});

describe('a realtime replica that accepts connections but never answers', () => {
  it('has the socket closed after UPGRADE_TIMEOUT_MS and is passed over from then on', async () => {
    // As a stopped (SIGSTOP) or hung process: the kernel still accepts, nobody answers.
    const held: net.Socket[] = [];
    const hung = net.createServer((s) => void held.push(s));
    await new Promise<void>((r) => hung.listen(0, '127.0.0.1', r));
    const hungUrl = `http://127.0.0.1:${(hung.address() as AddressInfo).port}`;
    const ok = await replica('ok');
    const urls = [hungUrl, ok.url].sort();
    const board = Array.from({ length: 50 }, (_, i) => `board-${i}`).find((b) => rendezvous(b, urls) === hungUrl)!;
    // No /ready probes (start does nothing): only the upgrade's own timeout can find the hung replica out.
    const set = new ReplicaSet({ urls, logger: quiet });
    set.start = async () => {};
    const gw = await gatewayOver(set, { UPGRADE_TIMEOUT_MS: '300' });
    try {
      const started = Date.now();
      expect(await socketReaches(gw.port, board)).toBe('refused');
      const waited = Date.now() - started;
      expect(waited).toBeGreaterThanOrEqual(250);
      expect(waited).toBeLessThan(5_000);
      expect(set.states()).toEqual(expect.arrayContaining([{ url: hungUrl, up: false }]));
      expect(await socketReaches(gw.port, board)).toBe('ok');
    } finally {
      for (const s of held) s.destroy();
      await gw.close();
      await ok.kill();
      await new Promise((r) => hung.close(r));
    }
  });
});

describe('a realtime replica that stops answering with sockets open', () => {
  it('has its sockets closed after two silent probes, and keeps them through a 503', async () => {
    const a = await replica('a');
    const b = await replica('b');
    const urls = [a.url, b.url].sort();
    const boards = Array.from({ length: 50 }, (_, i) => `board-${i}`);
    const onA = boards.find((x) => rendezvous(x, urls) === a.url)!;
    const onB = boards.find((x) => rendezvous(x, urls) === b.url)!;
    const set = new ReplicaSet({ urls, logger: quiet, probeEveryMs: 100, probeTimeoutMs: 100, downForMs: 60_000 });
    const gw = await gatewayOver(set);
    const openSocket = (board: string) =>
      new Promise<{ ws: WebSocket; closed: Promise<number> }>((resolve, reject) => {
        const ws = new WebSocket(`ws://127.0.0.1:${gw.port}/yjs/${board}?token=t`);
        const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
        ws.once('message', () => resolve({ ws, closed }));
        ws.once('error', reject);
      });
    try {
      const toA = await openSocket(onA);
      const toB = await openSocket(onB);
      // b says it is not ready: it is alive, so its sockets stay (it closes them itself when it must).
      b.ready.mode = 'unavailable';
      let closedB = false;
      void toB.closed.then(() => (closedB = true));
      // Sentinel: three probes answered 503 (two silent ones are enough to close a replica's sockets).
      const seen = b.ready.probes;
      await eventually(() => b.ready.probes >= seen + 4, { what: 'three probes of b answered 503' });
      expect(closedB).toBe(false);
      expect(toB.ws.readyState).toBe(WebSocket.OPEN);
      b.ready.mode = 'ok';
      // a answers nothing: its socket is closed by the gateway, and the board's next socket goes to b.
      const started = Date.now();
      a.ready.mode = 'silent';
      await toA.closed;
      // Two silent probes take 0.2 s here; the bound only tells that from the 60 s a refused replica
      // is otherwise passed over, loose enough for a loaded machine.
      expect(Date.now() - started).toBeLessThan(30_000);
      // b's next probe answers 200 again: a's board goes to b.
      await eventually(async () => (await socketReaches(gw.port, onA)) === 'b', { what: "a's board on b" });
      expect(toB.ws.readyState).toBe(WebSocket.OPEN);
      toB.ws.close();
    } finally {
      set.stop();
      await gw.close();
      a.ready.mode = 'ok';
      await Promise.all([a.kill(), b.kill()]);
    }
  });
});
