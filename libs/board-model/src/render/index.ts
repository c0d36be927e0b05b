export * from './types.ts';
export * from './text.ts';
export * from './scene.ts';
export * from './svg.ts';
export * from './caret.ts';
