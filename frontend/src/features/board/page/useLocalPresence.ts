/**
 * Our own awareness: who we are (the temporary 'Загрузка...' presence until the board answer names
 * us), the cursor (throttled), and the participants list kept live from everyone's states.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Awareness } from 'y-protocols/awareness';
import { CURSOR_THROTTLE_MS, LOADING_PRESENCE_NAME, colorFor, participantsOf, type Participant } from './presence.ts';

export function useLocalPresence(awareness: Awareness | null, who: { id: string; name: string } | null, fallbackId: string) {
  const [participants, setParticipants] = useState<Participant[]>([]);
  const [selection, setSelection] = useState<string[]>([]);
  const last = useRef(0);
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    if (!awareness) return;
    const id = who?.id ?? fallbackId;
    const user = { id, name: who?.name ?? LOADING_PRESENCE_NAME, color: colorFor(id) };
    const prev = (awareness.getLocalState() ?? {}) as Record<string, unknown>;
    awareness.setLocalState({ cursor: null, selection: [], ...prev, user });
  }, [awareness, who?.id, who?.name, fallbackId]);

  useEffect(() => {
    if (!awareness) return;
    const refresh = () => {
      setParticipants(participantsOf(awareness.getStates(), awareness.clientID));
      const own = awareness.getLocalState() as { selection?: unknown } | null;
      const sel = Array.isArray(own?.selection) ? (own.selection as string[]) : [];
      setSelection((cur) => (cur.length === sel.length && cur.every((v, i) => v === sel[i]) ? cur : sel));
    };
    awareness.on('change', refresh);
    refresh();
    return () => awareness.off('change', refresh);
  }, [awareness]);

  /** Leading + trailing throttle: the first move goes at once, the last one is never lost. */
  const setCursor = useCallback(
    (point: { x: number; y: number } | null) => {
      if (!awareness) return;
      clearTimeout(pending.current);
      const send = () => {
        last.current = performance.now();
        awareness.setLocalStateField('cursor', point);
      };
      const wait = CURSOR_THROTTLE_MS - (performance.now() - last.current);
      if (wait <= 0) send();
      else pending.current = setTimeout(send, wait);
    },
    [awareness],
  );
  useEffect(() => () => clearTimeout(pending.current), []);

  return { participants, selection, setCursor };
}
