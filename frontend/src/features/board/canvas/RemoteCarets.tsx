/**
 * Other people's carets in the sticky or text they are typing in (issue 35 item 4): a thin line in
 * their colour where their `caret` awareness field points (textBinding.ts publishes it as a
 * Y.RelativePosition, so it stays between the same characters while anyone types), laid out with
 * the drawing's own wrapping (board-model caretPlace). One animation-frame loop moves DOM nodes
 * directly, as the page's cursors do, so it never re-renders React.
 */
import { useEffect, useRef } from 'react';
import * as Y from 'yjs';
import type { Awareness } from 'y-protocols/awareness';
import { caretPlace, getObjects, storedText, type StickyObject, type TextObject } from '@wb/board-model';
import type { CanvasEngine } from './engine/CanvasEngine.ts';
import { CARET_FIELD, type CaretState } from './textBinding.ts';
import styles from './TextEditor.module.css';

interface Remote {
  caret: CaretState;
  color: string;
  name: string;
}

function remoteCarets(awareness: Awareness): Map<number, Remote> {
  const out = new Map<number, Remote>();
  for (const [clientId, raw] of awareness.getStates()) {
    if (clientId === awareness.clientID || !raw || typeof raw !== 'object') continue;
    const state = raw as { user?: { name?: unknown; color?: unknown }; [CARET_FIELD]?: Partial<CaretState> | null };
    const c = state[CARET_FIELD];
    if (!c || typeof c.id !== 'string' || typeof c.index !== 'number') continue;
    const color = typeof state.user?.color === 'string' ? state.user.color : '#E53935';
    const name = typeof state.user?.name === 'string' ? state.user.name : '';
    out.set(clientId, { caret: { id: c.id, index: c.index, rel: c.rel ?? null }, color, name });
  }
  return out;
}

/** The caret's index in the text as it is now: through its relative position when it still resolves. */
function indexOf(doc: Y.Doc, text: Y.Text | string, caret: CaretState): number {
  if (caret.rel && text instanceof Y.Text) {
    try {
      const abs = Y.createAbsolutePositionFromRelativePosition(Y.createRelativePositionFromJSON(caret.rel), doc);
      if (abs && abs.type === text) return abs.index;
    } catch {
      // A malformed position from another client: the plain index below.
    }
  }
  return caret.index;
}

export function RemoteCarets({ engine, awareness }: { engine: CanvasEngine; awareness: Awareness }) {
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const host = root.current!;
    let remotes = new Map<number, Remote>();
    const nodes = new Map<number, HTMLDivElement>();
    const sync = () => {
      remotes = remoteCarets(awareness);
      for (const [id, el] of nodes) {
        if (!remotes.has(id)) {
          el.remove();
          nodes.delete(id);
        }
      }
      for (const [id, r] of remotes) {
        let el = nodes.get(id);
        if (!el) {
          el = document.createElement('div');
          el.className = styles.caret;
          el.dataset.testid = 'remote-caret';
          el.appendChild(document.createElement('span'));
          host.appendChild(el);
          nodes.set(id, el);
        }
        el.style.setProperty('--caret-color', r.color);
        el.dataset.name = r.name;
        el.dataset.objectId = r.caret.id;
        el.firstChild!.textContent = r.name;
      }
    };
    let frame = 0;
    const tick = () => {
      frame = requestAnimationFrame(tick);
      const objects = getObjects(engine.doc);
      const scale = engine.camera.scale;
      for (const [id, r] of remotes) {
        const el = nodes.get(id)!;
        const obj = engine.scene.object(r.caret.id);
        const map: unknown = objects.get(r.caret.id);
        const text = map instanceof Y.Map ? storedText(map as Y.Map<unknown>) : null;
        const place =
          obj && text !== null && (obj.type === 'sticky' || obj.type === 'text')
            ? caretPlace({ ...(obj as StickyObject | TextObject), text: text.toString() }, indexOf(engine.doc, text, r.caret))
            : null;
        if (!place) {
          el.style.display = 'none';
          continue;
        }
        const p = engine.toScreen({ x: place.x, y: place.y });
        el.style.display = '';
        el.style.height = `${place.height * scale}px`;
        el.style.transform = `translate(${p.x}px, ${p.y}px)`;
        el.dataset.x = String(Math.round(place.x));
        el.dataset.y = String(Math.round(place.y));
      }
    };
    awareness.on('change', sync);
    sync();
    frame = requestAnimationFrame(tick);
    return () => {
      awareness.off('change', sync);
      cancelAnimationFrame(frame);
      for (const el of nodes.values()) el.remove();
    };
  }, [engine, awareness]);

  return <div ref={root} className={styles.carets} aria-hidden="true" data-testid="remote-carets" />;
}
