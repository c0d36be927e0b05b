export * from './constants.ts';
export * from './objects.ts';
export * from './ydoc.ts';
export * from './geometry.ts';
export * from './templates.ts';
export * from './stickerImport.ts';
export * from './tools/index.ts';
export * from './render/index.ts';
