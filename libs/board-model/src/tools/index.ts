export * from './camera.ts';
export * from './limits.ts';
export * from './create.ts';
export * from './transform.ts';
export * from './hit.ts';
export * from './arrows.ts';
export * from './clipboard.ts';
export * from './style.ts';
