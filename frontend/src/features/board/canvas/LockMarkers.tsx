/**
 * A lock badge on each selected locked object (issue 35 item 5), so one sees why it does not move,
 * resize or get erased; as in Miro, the marker shows on selection. Placed over the stage and moved
 * with the camera each animation frame (redrawn only when the selection, a position or the camera
 * changed), without touching the renderer. Shown to every role: a lock hides nothing from anyone.
 */
import { useEffect, useRef } from 'react';
import { LockIcon } from 'lucide-react';
import type { CanvasEngine } from './engine/CanvasEngine.ts';
import { STRUCTURE_LABELS } from './texts.ts';
import styles from './canvas.module.css';

/** More selected locked objects than this show no badges (a badge per object would hide the board). */
const MAX_BADGES = 50;

export function LockMarkers({ engine }: { engine: CanvasEngine }) {
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let frame = 0;
    let last = '';
    const tick = () => {
      frame = requestAnimationFrame(tick);
      const boxes = engine
        .selectedObjects()
        .filter((o) => o.locked)
        .slice(0, MAX_BADGES)
        .flatMap((o) => {
          const b = engine.store.entries.get(o.id)?.item.bounds;
          if (!b) return [];
          const p = engine.toScreen({ x: b.x + b.width, y: b.y });
          return [{ id: o.id, x: Math.round(p.x), y: Math.round(p.y) }];
        });
      const key = boxes.map((b) => `${b.id}:${b.x},${b.y}`).join(';');
      if (key === last) return;
      last = key;
      const el = root.current!;
      const badges = [...el.children] as HTMLElement[];
      badges.forEach((badge, i) => {
        const b = boxes[i];
        badge.style.display = b ? '' : 'none';
        if (!b) return;
        badge.style.transform = `translate(${b.x}px, ${b.y}px) translate(-50%, -50%)`;
        badge.dataset.objectId = b.id;
      });
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [engine]);
  return (
    <div ref={root} className={styles.lockMarkers} aria-hidden="true">
      {Array.from({ length: MAX_BADGES }, (_, i) => (
        <span key={i} className={styles.lockMarker} style={{ display: 'none' }} data-testid="lock-marker" title={STRUCTURE_LABELS.locked}>
          <LockIcon size={12} />
        </span>
      ))}
    </div>
  );
}
