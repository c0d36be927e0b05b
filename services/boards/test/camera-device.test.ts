/**
 * Cameras per device (issue 35 item 6): ?device= reads that device's view; a device without one
 * gets the user's old-format row (answered without `device`, the page converts it); saving with a
 * device never touches another device's view or the old row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness, type TestUser } from './helpers.ts';

let h: Harness;
let alice: TestUser;

beforeAll(async () => {
  h = await startHarness();
  alice = await h.user('Алиса');
});
afterAll(async () => {
  await h?.stop();
});

describe('camera per device', () => {
  it('each device keeps its own view; the old row is the fallback', async () => {
    const b = (await h.api('POST', '/api/boards', { token: alice.token, body: { title: 'Устройства', folder_id: null } })).body.board;
    const get = async (q = '') => (await h.api('GET', `/api/boards/${b.id}/camera${q}`, { token: alice.token })).body;
    expect(await get('?device=phone')).toEqual({ data: null });

    const old = { position_x: 400, position_y: 300, scale_x: 1, scale_y: 1 };
    expect((await h.api('PUT', `/api/boards/${b.id}/camera`, { token: alice.token, body: old })).status).toBe(200);
    expect(await get('?device=phone')).toEqual({ data: old });

    const phone = { position_x: -50, position_y: 20.5, scale_x: 0.5, scale_y: 0.5, device: 'phone' };
    const desktop = { position_x: 1200, position_y: -800, scale_x: 2, scale_y: 2, device: 'desktop' };
    expect((await h.api('PUT', `/api/boards/${b.id}/camera`, { token: alice.token, body: phone })).body).toEqual({ data: phone });
    expect((await h.api('PUT', `/api/boards/${b.id}/camera`, { token: alice.token, body: desktop })).status).toBe(200);
    expect(await get('?device=phone')).toEqual({ data: phone });
    expect(await get('?device=desktop')).toEqual({ data: desktop });
    expect(await get('?device=tablet')).toEqual({ data: old });
    // Without a device: the old row only, as before devices existed.
    expect(await get()).toEqual({ data: old });

    const moved = { ...phone, position_x: 7 };
    await h.api('PUT', `/api/boards/${b.id}/camera`, { token: alice.token, body: moved });
    expect(await get('?device=phone')).toEqual({ data: moved });
    expect(await get('?device=desktop')).toEqual({ data: desktop });
  });

  it('an unknown device is a 400 with a Russian text', async () => {
    const b = (await h.api('POST', '/api/boards', { token: alice.token, body: { title: 'Плохое', folder_id: null } })).body.board;
    const r = await h.api('GET', `/api/boards/${b.id}/camera?device=watch`, { token: alice.token });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'VALIDATION_ERROR', error: 'Некорректная позиция камеры' });
    const put = await h.api('PUT', `/api/boards/${b.id}/camera`, {
      token: alice.token,
      body: { position_x: 0, position_y: 0, scale_x: 1, scale_y: 1, device: 'tv' },
    });
    expect(put.status).toBe(400);
    expect(put.body.code).toBe('VALIDATION_ERROR');
  });
});
