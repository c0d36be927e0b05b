/**
 * The `@wb/contracts/constants` entry: limits, palettes, error codes and Russian texts without zod.
 * Nothing here may import zod (or a module that does), so a page of the SPA that has no form
 * keeps zod out of its bundle; test/constants-entry.test.ts checks the import graph.
 */
export * from './errors.ts';
export * from './texts.ts';
export * from './board-constants.ts';
export * from './ids.ts';
