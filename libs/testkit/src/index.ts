export * from './processes.ts';
export * from './postgres.ts';
export * from './http.ts';
export * from './eventually.ts';
export * from './factories.ts';
export * from './images.ts';
export * from './mailpit.ts';
export * from './tokens.ts';
