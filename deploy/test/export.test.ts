import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '@wb/testkit';
import { startEmbedded, type EmbeddedHandle } from '../embedded/embedded.ts';
import { addObject, createSticky } from '@wb/board-model';
import { call, eventually, yClient } from './clients.ts';

/** A real 1×1 PNG. */
const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

// The export through the gateway on the embedded product: realtime's live state, boards' owner check,
// the board's image store, and the gateway's /api/export and /yjs/images routes.
describe('export in the embedded mode', () => {
  let handle: EmbeddedHandle | undefined;
  afterAll(async () => {
    await handle?.stop();
  });

  it('exports the live board for its owner only; images upload and serve to link holders', async () => {
    handle = await startEmbedded({
      port: 0,
      dataDir: await tempDir('export'),
      logLevel: 'warn',
      env: { AUTH_RATE_LIMIT_PER_MIN: '0' },
    });
    const base = handle.url;
    const health = await call(base, 'GET', '/api/health');
    expect(health.body.services.export.status).toBe('up');

    const reg = await call(base, 'POST', '/api/auth/register', {
      body: { email: 'exp@example.com', password: 'Secret-123', name: 'Ольга' },
    });
    const token: string = reg.body.accessToken;
    const other = await call(base, 'POST', '/api/auth/register', {
      body: { email: 'other@example.com', password: 'Secret-123', name: 'Пётр' },
    });
    const boardId: string = (
      await call(base, 'POST', '/api/boards', { token, body: { title: 'Экспорт', folder_id: null } })
    ).body.board.id;
    await call(base, 'PUT', `/api/boards/${boardId}/sharing`, { token, body: { enabled: true } });
    const links = (
      await call(base, 'POST', `/api/boards/${boardId}/multiple-links`, {
        token,
        body: { enabledRoles: ['viewer', 'guest', 'editor'] },
      })
    ).body.board;
    const viewer: string = links.viewer_token_hash;

    const upload = await fetch(`${base}/yjs/images/${boardId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: new Uint8Array(PNG_1PX),
    });
    expect(upload.status).toBe(201);
    const { url } = (await upload.json()) as { url: string };
    // Read as the board page does (issue 32 item 9): a signed URL, the share token in a header.
    const signed = await fetch(`${base}/yjs/images/${boardId}/urls`, {
      method: 'POST',
      headers: { 'x-share-token': viewer, 'content-type': 'application/json' },
      body: JSON.stringify({ hashes: [url.split('/').pop()] }),
    });
    const signedUrls = ((await signed.json()) as { urls: Record<string, string> }).urls;
    const served = await fetch(`${base}${Object.values(signedUrls)[0]}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('cache-control')).toContain('immutable');
    const svgUpload = await fetch(`${base}/yjs/images/${boardId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: '<svg/>',
    });
    expect(svgUpload.status).toBe(415);

    const client = yClient(base.replace('http', 'ws') + '/yjs', boardId, token);
    await eventually(() => client.provider.synced, 10_000, 'sync');
    addObject(client.doc, createSticky({ id: 's1', x: 0, y: 0, text: 'Экспорт' }));
    const area = { x: -50, y: -50, width: 300, height: 300 };
    // Not saved yet: the export reads the live document.
    let svg = '';
    await eventually(
      async () => {
        const res = await fetch(`${base}/api/export/svg`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ boardId, area }),
        });
        svg = res.ok ? await res.text() : '';
        return svg.includes('data-id="s1"');
      },
      10_000,
      'the sticky in the export',
    );
    client.provider.destroy();

    const png = await fetch(`${base}/api/export/png`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ boardId, area }),
    });
    expect(png.status).toBe(200);
    expect(png.headers.get('content-disposition')).toMatch(
      /filename\*=UTF-8''\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d_/,
    );

    // Every role but the owner's is refused, each as the running services decide it (the roles come
    // from boards, the identity from auth: nothing here tells export who is what).
    for (const role of ['editor', 'viewer', 'guest'] as const) {
      const link: string = links[`${role}_token_hash`];
      expect(link, role).toBeTruthy();
      // The link's role is real: realtime admits it on this board (an editor's edits, a viewer's view).
      const holder = yClient(`${base.replace('http', 'ws')}/yjs`, boardId, link);
      await eventually(() => holder.provider.synced, 10_000, `the ${role} link to sync`);
      holder.provider.destroy();
      for (const format of ['png', 'svg', 'pdf']) {
        // A link holder without an account: no Bearer token, or the share token in its place.
        const anonymous = await call(base, 'POST', `/api/export/${format}`, { share: link, body: { boardId, area } });
        expect(anonymous, `${role} link, ${format}`).toMatchObject({ status: 401, body: { code: 'TOKEN_MISSING' } });
        const asBearer = await call(base, 'POST', `/api/export/${format}`, { token: link, body: { boardId, area } });
        expect(asBearer.status, `${role} link as a Bearer token, ${format}`).toBe(401);
        // A signed-in user who holds the link: signed in is not owning.
        const signedIn = await call(base, 'POST', `/api/export/${format}`, { token: other.body.accessToken, share: link, body: { boardId, area } });
        // Export asks boards for the account's role only (the link is not the account's): no access.
        expect(signedIn, `signed-in ${role}, ${format}`).toMatchObject({ status: 403, body: { code: 'ACCESS_DENIED', error: 'У вас нет доступа к этой доске' } });
      }
    }
    // A stranger: signed in, no link, not the owner.
    for (const format of ['png', 'svg', 'pdf']) {
      const stranger = await call(base, 'POST', `/api/export/${format}`, { token: other.body.accessToken, body: { boardId, area } });
      expect(stranger, `stranger, ${format}`).toMatchObject({ status: 403, body: { code: 'ACCESS_DENIED', error: 'У вас нет доступа к этой доске' } });
    }
    // ...while the owner's own call with the same body succeeds: the refusals are about the caller.
    expect((await call(base, 'POST', '/api/export/svg', { token, body: { boardId, area } })).status).toBe(200);
  }, 120_000);
});
