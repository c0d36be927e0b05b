/** Board images: what realtime's app.ts wires (store by mode, routes). */
export { imageRoutes, imageUrl, DEFAULT_IMAGE_MAX_BYTES, type ImageRoutesDeps } from './routes.ts';
export { createPostgresImageStore } from './postgres.ts';
export type { ImageStore, StoredImage } from './store.ts';
export { imageHash, displayKey } from './store.ts';
export { sniffImageType, ALLOWED_IMAGE_TYPES } from './sniff.ts';

/** Loaded only in cluster mode, so the embedded mode never needs the driver. */
export async function createMongoImageStore(opts: { url: string; dbName: string }) {
  const { createMongoImageStore: create } = await import('./mongo.ts');
  return create(opts);
}
