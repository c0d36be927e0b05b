// The render task without the service around it, for the bench's profile script (@wb/export/render).
export { default as render, type RenderTask, type RenderResult } from './task.ts';
export { fontFiles } from './fonts.ts';
export { createRenderPool } from './pool.ts';
export { bandCount, renderBanded } from './bands.ts';
