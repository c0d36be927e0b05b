/**
 * Camera position (§4 step 4, §7, §9): restored on open, ready at the latest 1 s after the objects
 * load, saved 500 ms after the last move, only for signed-in users opening the board without a
 * link. Remembered per device class (issue 35 item 6: a phone and a desktop each keep their own)
 * as a view in board coordinates, so another window size shows the same centre. A device with no
 * view of its own gets the user's old-format camera (the canvas converts it); none at all: the
 * canvas fits the content (an empty board: the spec's origin centred at scale 1, as after a failure).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { CameraDevice, CameraPosition } from '@wb/contracts';
import { markOpen } from './realtime/boardConnection.ts';
import { useGetCameraQuery, useSaveCameraMutation } from './boardPageApi.ts';

export const CAMERA_SAVE_DEBOUNCE_MS = 500;
export const CAMERA_READY_FORCE_MS = 1000;
/** Under the spec's mobile breakpoint (§2) on the screen's short side: a phone in either orientation. */
const PHONE_MAX_PX = 639;

/**
 * The device class, from the screen (not the window: resizing a desktop window keeps its camera).
 * A touch-only screen larger than a phone is a tablet.
 */
export function cameraDevice(): CameraDevice {
  const short = Math.min(window.screen.width, window.screen.height);
  if (short <= PHONE_MAX_PX) return 'phone';
  const touchOnly = window.matchMedia('(pointer: coarse)').matches && !window.matchMedia('(any-pointer: fine)').matches;
  return touchOnly ? 'tablet' : 'desktop';
}

export function useCamera(opts: { boardId: string; persist: boolean; objectsLoaded: boolean }) {
  const { boardId, persist, objectsLoaded } = opts;
  const [device] = useState(cameraDevice);
  const query = useGetCameraQuery({ id: boardId, device }, { skip: !persist });
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
  /** What the canvas opens with; null = fit the content. Frozen once ready so a late answer never jumps. */
  const answer: CameraPosition | null = persist && query.isSuccess ? (query.data?.data ?? null) : null;
  const frozen = useRef<{ value: CameraPosition | null } | null>(null);
  if (ready && !frozen.current) frozen.current = { value: answer };
  const initial = frozen.current ? frozen.current.value : answer;

  const onCameraChange = useCallback(
    (camera: CameraPosition) => {
      if (!persist) return;
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        void saveCamera({ id: boardId, camera: { ...camera, device } });
      }, CAMERA_SAVE_DEBOUNCE_MS);
    },
    [boardId, persist, saveCamera, device],
  );
  useEffect(() => () => clearTimeout(timer.current), []);

  return { ready, initial, onCameraChange };
}
