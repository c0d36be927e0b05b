import { PlusIcon } from 'lucide-react';
import { SIDES, type Side } from '@wb/board-model';
import { IconButton } from '../../../components/ui/Button.tsx';
import type { CanvasEngine } from './engine/CanvasEngine.ts';
import { LABELS } from './texts.ts';
import { useCanvasState } from './useCanvasState.ts';
import styles from './canvas.module.css';

const OFFSET = 22;

/**
 * The four connected-sticker buttons around one selected sticky (§4). The engine keeps their box
 * in the canvas store on every camera or selection change; only this component re-renders then.
 */
export function SelectionOverlay({ engine }: { engine: CanvasEngine }) {
  const box = useCanvasState(engine.state, (s) => s.connectBox);
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
        <IconButton
          key={side}
          plain
          tooltip
          className={styles.connect}
          style={place(side)}
          label={LABELS.connect[side]}
          data-testid={`connect-${side}`}
          onPointerDown={(e) => e.stopPropagation()}
          onClick={() => engine.editor.connectSticky(side)}
        >
          <PlusIcon size={14} />
        </IconButton>
      ))}
    </>
  );
}
