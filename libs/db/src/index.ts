export * from './pool.ts';
export * from './migrate.ts';
export * from './embedded.ts';
