import { describe, expect, it } from 'vitest';
import { linkRole, resolveAccess, strongerRole, tokenRole, type ShareState } from '../../src/domain/roles.ts';
import { revokedRoles, rotateSingleLink, setRoleLinks, setSharing, setSingleLink } from '../../src/domain/sharing.ts';

const S = (p: Partial<ShareState> = {}): ShareState => ({ enabled: true, viewer: null, guest: null, editor: null, ...p });
let n = 0;
const tok = () => `t${++n}`;

describe('roles', () => {
  it('the stronger role wins', () => {
    expect(strongerRole('guest', 'viewer')).toBe('viewer');
    expect(strongerRole('owner', 'editor')).toBe('owner');
    expect(strongerRole('none', 'guest')).toBe('guest');
  });

  it('tokens grant their role only while sharing is on', () => {
    const s = S({ viewer: 'v', editor: 'e' });
    expect(tokenRole(s, 'v')).toBe('viewer');
    expect(tokenRole(s, 'e')).toBe('editor');
    expect(tokenRole(s, 'x')).toBeNull();
    expect(tokenRole({ ...s, enabled: false }, 'e')).toBeNull();
  });

  it('resolves access for every kind of caller', () => {
    const share = S({ viewer: 'v' });
    expect(resolveAccess({ ownerId: 'o', userId: 'o', share, token: null })).toMatchObject({ ok: true, role: 'owner' });
    expect(resolveAccess({ ownerId: 'o', userId: 'o', share, token: 'bad' })).toMatchObject({ ok: true, role: 'owner' });
    expect(resolveAccess({ ownerId: 'o', userId: 'u', share, token: 'v' })).toMatchObject({ ok: true, role: 'viewer' });
    expect(resolveAccess({ ownerId: 'o', userId: null, share, token: 'v' })).toMatchObject({ ok: true, role: 'viewer' });
    expect(resolveAccess({ ownerId: 'o', userId: 'u', share, token: null })).toEqual({ ok: false, reason: 'ACCESS_DENIED' });
    expect(resolveAccess({ ownerId: 'o', userId: 'u', share, token: 'bad' })).toEqual({ ok: false, reason: 'INVALID_SHARE_TOKEN' });
    expect(resolveAccess({ ownerId: 'o', userId: null, share, token: 'bad' })).toEqual({ ok: false, reason: 'INVALID_SHARE_TOKEN' });
    expect(resolveAccess({ ownerId: 'o', userId: null, share, token: null })).toEqual({ ok: false, reason: 'TOKEN_MISSING' });
  });

  it('link_role is the strongest working link', () => {
    expect(linkRole(S({ guest: 'g', viewer: 'v' }))).toBe('viewer');
    expect(linkRole(S({ guest: 'g', editor: 'e' }))).toBe('editor');
    expect(linkRole(S({ guest: 'g', enabled: false }))).toBeNull();
    expect(linkRole(S())).toBeNull();
  });
});

describe('sharing transitions', () => {
  it('multiple links: listed enabled (kept unless rotate), others disabled', () => {
    const s = S({ viewer: 'v', guest: 'g' });
    const a = setRoleLinks(s, ['viewer', 'editor'], false, tok);
    expect(a.viewer).toBe('v');
    expect(a.guest).toBeNull();
    expect(a.editor).toMatch(/^t/);
    expect(revokedRoles(s, a)).toEqual(['guest']);
    const b = setRoleLinks(a, ['viewer', 'editor'], true, tok);
    expect(b.viewer).not.toBe('v');
    expect(revokedRoles(a, b).sort()).toEqual(['editor', 'viewer']);
  });

  it('sharing off revokes every working link and keeps them for later', () => {
    const s = S({ viewer: 'v', editor: 'e' });
    const off = setSharing(s, false, tok);
    expect(revokedRoles(s, off).sort()).toEqual(['editor', 'viewer']);
    expect(off.viewer).toBe('v');
    expect(revokedRoles(off, setSharing(off, true, tok))).toEqual([]);
    expect(setSharing(S({ enabled: false }), true, tok).viewer).toMatch(/^t/);
  });

  it('the single link is the viewer link', () => {
    const on = setSingleLink(S({ enabled: false }), true, tok);
    expect(on.enabled).toBe(true);
    expect(on.viewer).toBeTruthy();
    const rotated = rotateSingleLink(on, tok);
    expect(revokedRoles(on, rotated)).toEqual(['viewer']);
    const off = setSingleLink(rotated, false, tok);
    expect(off).toMatchObject({ enabled: false, viewer: null });
    expect(setSingleLink(S({ viewer: 'v', guest: 'g' }), false, tok)).toMatchObject({ enabled: true, viewer: null, guest: 'g' });
  });
});
