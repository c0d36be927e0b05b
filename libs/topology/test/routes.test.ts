import { describe, expect, it } from 'vitest';
import { compileRoutes, matchRoute, ROUTES, TOPOLOGY, type ServiceTopology } from '../src/index.ts';

const svc = (name: ServiceTopology['name'], paths: string[]): ServiceTopology => ({
  ...TOPOLOGY[0],
  name,
  routes: paths.map((path) => ({ path })),
});

describe('compileRoutes', () => {
  it('puts the most specific prefix first whatever the declaration order', () => {
    const table = compileRoutes([svc('boards', ['/api/boards']), svc('realtime', ['/api/boards/:id/debug'])]);
    expect(matchRoute(table, '/api/boards/abc/debug/snapshots')?.service).toBe('realtime');
    expect(matchRoute(table, '/api/boards/abc')?.service).toBe('boards');
    expect(matchRoute(table, '/api/boardsX')).toBeUndefined();
  });

  it('prefers a literal segment to a parameter at the same depth', () => {
    const table = compileRoutes([svc('realtime', ['/yjs/:board']), svc('export', ['/yjs/images'])]);
    expect(matchRoute(table, '/yjs/images/1')?.service).toBe('export');
    expect(matchRoute(table, '/yjs/b1')?.service).toBe('realtime');
  });

  it('refuses a prefix that two services claim', () => {
    expect(() => compileRoutes([svc('auth', ['/api/x']), svc('boards', ['/api/x'])])).toThrow(/both auth and boards/);
  });

  it('matches segments literally (no regular expression from a path)', () => {
    const table = compileRoutes([svc('auth', ['/api/a.b'])]);
    expect(matchRoute(table, '/api/a.b/c')?.service).toBe('auth');
    expect(matchRoute(table, '/api/aXb')).toBeUndefined();
  });
});

describe('the manifest routes', () => {
  it.each([
    ['/api/auth/login', 'auth'],
    ['/api/admin/users/1', 'auth'],
    ['/api/admin/plans', 'billing'],
    ['/api/admin/docker', 'admin'],
    ['/api/boards/abc/debug/snapshots', 'realtime'],
    ['/api/boards/abc', 'boards'],
    ['/api/folders/move-board', 'boards'],
    ['/api/billing/plans', 'billing'],
    ['/api/export/png', 'export'],
    ['/yjs/board-1', 'realtime'],
    ['/yjs/images/board-1/abc', 'realtime'],
  ])('%s goes to %s', (path, service) => {
    expect(matchRoute(ROUTES, path)?.service).toBe(service);
  });

  it('routes nothing under /internal', () => {
    expect(matchRoute(ROUTES, '/internal/jwks')).toBeUndefined();
  });
});
