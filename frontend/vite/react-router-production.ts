import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Alias } from 'vite';

/**
 * React Router 7 resolves to its development build in every mode (its package exports name no
 * production condition); the build uses the production files it ships beside them.
 */
export function reactRouterProduction(root: string): Alias[] {
  const dir = path.resolve(root, '../node_modules/react-router/dist/production');
  if (!existsSync(path.join(dir, 'index.mjs'))) return [];
  return [
    { find: /^react-router$/, replacement: path.join(dir, 'index.mjs') },
    { find: /^react-router\/dom$/, replacement: path.join(dir, 'dom-export.mjs') },
  ];
}
