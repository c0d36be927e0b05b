export * from './errors.ts';
export * from './texts.ts';
export * from './board-constants.ts';
export * from './auth.ts';
export * from './events.ts';
export * from './boards.ts';
export * from './board-answers.ts';
export * from './billing.ts';
