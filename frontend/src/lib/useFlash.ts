import { useCallback, useEffect, useRef, useState } from 'react';

/** A message that disappears by itself (spec: page success messages last 3 s). */
export const FLASH_MS = 3000;

export function useFlash(ms = FLASH_MS): [string | null, (message: string) => void, () => void] {
  const [message, setMessage] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const clear = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    setMessage(null);
  }, []);
  const show = useCallback(
    (m: string) => {
      if (timer.current) clearTimeout(timer.current);
      setMessage(m);
      timer.current = setTimeout(() => {
        timer.current = null;
        setMessage(null);
      }, ms);
    },
    [ms],
  );
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return [message, show, clear];
}
