/**
 * Other people's cursors (name and colour, interpolated between the throttled updates) and their
 * selections outlined in their colour, drawn over the canvas. One animation-frame loop moves DOM
 * nodes directly so a cursor update never re-renders React.
 */
import { useEffect, useRef } from 'react';
import type * as Y from 'yjs';
import type { Awareness } from 'y-protocols/awareness';
import { boundsOf, getObjects, objectToJSON } from '@wb/board-model';
import { remoteCursors, remoteSelections } from './presence.ts';
import styles from './boardPage.module.css';

/** Board → screen (relative to the canvas element); null while the canvas is not mounted. */
type ToScreen = (p: { x: number; y: number }) => { x: number; y: number } | null;

/**
 * Time constant of the easing towards the last received position: 95 % of a jump is covered in
 * 3τ = 30 ms, within the senders' 40 ms throttle, so the cursor glides from one update into the
 * next whatever the frame rate. (35 % per frame took ~190 ms to arrive at 60 fps and lagged
 * further on a busy page.)
 */
const EASE_TAU_MS = 10;
/** Closer than this (board units) the cursor is where it was sent. */
const SNAP = 1;

interface CursorNode {
  el: HTMLDivElement;
  x: number;
  y: number;
  tx: number;
  ty: number;
}

export function PresenceOverlay({ awareness, doc, toScreen }: { awareness: Awareness; doc: Y.Doc; toScreen: ToScreen }) {
  const root = useRef<HTMLDivElement>(null);
  const toScreenRef = useRef(toScreen);
  toScreenRef.current = toScreen;

  useEffect(() => {
    const host = root.current;
    if (!host) return;
    const cursors = new Map<number, CursorNode>();
    const outlines = new Map<string, HTMLDivElement>();
    let selections = new Map<string, string>();

    const sync = () => {
      const states = awareness.getStates();
      const seen = new Set<number>();
      for (const c of remoteCursors(states, awareness.clientID)) {
        seen.add(c.clientId);
        let node = cursors.get(c.clientId);
        if (!node) {
          const el = document.createElement('div');
          el.className = styles.cursor;
          el.dataset.testid = 'remote-cursor';
          el.innerHTML = `<svg width="18" height="18" viewBox="0 0 18 18" aria-hidden="true"><path d="M1 1l6 15 2.5-6.5L16 7z" stroke="white" stroke-width="1.2"/></svg><span></span>`;
          host.appendChild(el);
          node = { el, x: c.x, y: c.y, tx: c.x, ty: c.y };
          cursors.set(c.clientId, node);
        }
        node.tx = c.x;
        node.ty = c.y;
        node.el.style.setProperty('--cursor-color', c.color);
        node.el.dataset.name = c.name;
        node.el.dataset.x = String(Math.round(c.x));
        node.el.dataset.y = String(Math.round(c.y));
        const label = node.el.querySelector('span');
        if (label && label.textContent !== c.name) label.textContent = c.name;
      }
      for (const [id, node] of cursors) {
        if (!seen.has(id)) {
          node.el.remove();
          cursors.delete(id);
        }
      }
      selections = remoteSelections(states, awareness.clientID);
      for (const [id, el] of outlines) {
        if (!selections.has(id)) {
          el.remove();
          outlines.delete(id);
        }
      }
      for (const [id, color] of selections) {
        let el = outlines.get(id);
        if (!el) {
          el = document.createElement('div');
          el.className = styles.remoteSelection;
          el.dataset.testid = 'remote-selection';
          el.dataset.objectId = id;
          host.appendChild(el);
          outlines.set(id, el);
        }
        el.style.borderColor = color;
      }
    };

    let frame = 0;
    let last = performance.now();
    const tick = (now: number) => {
      frame = requestAnimationFrame(tick);
      const project = toScreenRef.current;
      const k = 1 - Math.exp(-Math.max(0, now - last) / EASE_TAU_MS);
      last = now;
      for (const node of cursors.values()) {
        node.x += (node.tx - node.x) * k;
        node.y += (node.ty - node.y) * k;
        if (Math.abs(node.tx - node.x) < SNAP) node.x = node.tx;
        if (Math.abs(node.ty - node.y) < SNAP) node.y = node.ty;
        const p = project({ x: node.x, y: node.y });
        if (!p) continue;
        node.el.style.transform = `translate(${p.x}px, ${p.y}px)`;
        // Where the cursor is drawn once it arrived (read by the benchmark's latency figure).
        if (node.x === node.tx && node.y === node.ty) {
          const at = String(Math.round(node.x));
          if (node.el.dataset.drawnX !== at) node.el.dataset.drawnX = at;
        }
      }
      if (outlines.size === 0) return;
      const objects = getObjects(doc);
      for (const [id, el] of outlines) {
        const map = objects.get(id);
        const obj = map ? objectToJSON(map) : null;
        if (!obj) {
          el.style.display = 'none';
          continue;
        }
        const b = boundsOf(obj);
        const a = project({ x: b.x, y: b.y });
        const z = project({ x: b.x + b.width, y: b.y + b.height });
        if (!a || !z) continue;
        el.style.display = '';
        el.style.transform = `translate(${a.x - 3}px, ${a.y - 3}px)`;
        el.style.width = `${z.x - a.x + 6}px`;
        el.style.height = `${z.y - a.y + 6}px`;
      }
    };

    awareness.on('change', sync);
    sync();
    frame = requestAnimationFrame(tick);
    return () => {
      awareness.off('change', sync);
      cancelAnimationFrame(frame);
      for (const n of cursors.values()) n.el.remove();
      for (const el of outlines.values()) el.remove();
    };
  }, [awareness, doc]);

  return <div ref={root} className={styles.presence} aria-hidden="true" data-testid="presence-overlay" />;
}
