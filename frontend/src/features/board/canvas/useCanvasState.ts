import { useSyncExternalStore } from 'react';
import type { CanvasState, CanvasStore } from './engine/canvasState.ts';

/**
 * One field (or another value kept by identity) of the canvas store; the component re-renders when
 * it changes. The selector must not build a new object or array on each call.
 */
export function useCanvasState<T>(store: CanvasStore, select: (state: CanvasState) => T): T {
  return useSyncExternalStore(store.subscribe, () => select(store.getState()));
}
