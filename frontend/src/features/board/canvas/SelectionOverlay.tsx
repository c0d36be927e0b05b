import { PlusIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { SIDES, type Side } from '@wb/board-model';
import type { CanvasEngine } from './engine/CanvasEngine.ts';
import type { Listeners } from './listeners.ts';
import { LABELS } from './texts.ts';
import styles from './canvas.module.css';

const OFFSET = 22;

/**
 * The four connected-sticker buttons around one selected sticky (§4). Follows the sticky on every
 * camera or selection change without re-rendering the rest of the canvas.
 */
export function SelectionOverlay({ engine, overlay }: { engine: CanvasEngine; overlay: Listeners }) {
  const [box, setBox] = useState<{ x: number; y: number; width: number; height: number } | null>(null);
  useEffect(() => {
    const update = () => {
      const objs = engine.selectedObjects();
      const show = !engine.readOnly && engine.tool === 'select' && objs.length === 1 && objs[0].type === 'sticky';
      setBox(show ? engine.selectionBox() : null);
    };
    update();
    return overlay.add(update);
  }, [engine, overlay]);
  if (!box) return null;
  const place = (side: Side) => {
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    if (side === 'top') return { left: cx, top: box.y - OFFSET };
    if (side === 'bottom') return { left: cx, top: box.y + box.height + OFFSET };
    if (side === 'left') return { left: box.x - OFFSET, top: cy };
    return { left: box.x + box.width + OFFSET, top: cy };
  };
  return (
    <>
      {SIDES.map((side) => (
        <button
          key={side}
          type="button"
          className={styles.connect}
          style={place(side)}
          aria-label={LABELS.connect[side]}
          title={LABELS.connect[side]}
          data-testid={`connect-${side}`}
          onPointerDown={(e) => e.stopPropagation()}
          onClick={() => engine.connectSticky(side)}
        >
          <PlusIcon size={14} />
        </button>
      ))}
    </>
  );
}
