// Types for backend-build.mjs, which the realtime bench imports from TypeScript.
export const STAMP_FILE: string;
export function inputsHash(dir: string, shared?: string[]): string;
export function staleBackendTargets(targets: string[], shared?: string[]): string[];
/** Compiles the backend packages whose inputs changed; resolves with the ones it compiled. */
export function buildBackendIfStale(opts?: { force?: boolean }): Promise<string[]>;
