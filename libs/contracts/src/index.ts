export * from './errors.ts';
export * from './texts.ts';
export * from './auth.ts';
export * from './events.ts';
export * from './boards.ts';
export * from './billing.ts';
