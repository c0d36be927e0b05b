export * from './processes.ts';
export * from './postgres.ts';
