/**
 * Camera position (§4 step 4, §7, §9): restored on open (null or a failure → centre at scale 1, the
 * canvas's default), ready at the latest 1 s after the objects load, saved 500 ms after the last
 * move, only for signed-in users opening the board without a link.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { CameraPosition } from '@wb/contracts';
import { markOpen } from './realtime/boardConnection.ts';
import { useGetCameraQuery, useSaveCameraMutation } from './boardPageApi.ts';

export const CAMERA_SAVE_DEBOUNCE_MS = 500;
export const CAMERA_READY_FORCE_MS = 1000;

export function useCamera(opts: { boardId: string; persist: boolean; objectsLoaded: boolean }) {
  const { boardId, persist, objectsLoaded } = opts;
  const query = useGetCameraQuery(boardId, { skip: !persist });
  const [forced, setForced] = useState(false);
  const [saveCamera] = useSaveCameraMutation();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    if (!objectsLoaded) return;
    const t = setTimeout(() => setForced(true), CAMERA_READY_FORCE_MS);
    return () => clearTimeout(t);
  }, [objectsLoaded]);

  const settled = !persist || query.isSuccess || query.isError;
  const ready = objectsLoaded && (settled || forced);
  useEffect(() => {
    if (ready) markOpen('camera-ready');
  }, [ready]);
  /** What the canvas starts from; null = centre at scale 1. Frozen once ready so a late answer never jumps. */
  const initial: CameraPosition | null = persist && query.isSuccess ? (query.data?.data ?? null) : null;

  const onCameraChange = useCallback(
    (camera: CameraPosition) => {
      if (!persist) return;
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        void saveCamera({ id: boardId, camera });
      }, CAMERA_SAVE_DEBOUNCE_MS);
    },
    [boardId, persist, saveCamera],
  );
  useEffect(() => () => clearTimeout(timer.current), []);

  return { ready, initial, onCameraChange };
}
