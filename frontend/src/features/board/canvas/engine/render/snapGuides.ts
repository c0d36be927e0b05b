/**
 * The snapping guides (issue 35 item 5) on the live layer: thin lines in board coordinates, one
 * screen pixel wide at any zoom. One shape per live layer, added on first use, so the layer itself
 * needs no change. Its `guides` attribute is what is drawn (the browser tests read it).
 */
import Konva from 'konva';
import type { Guide } from '@wb/board-model';
import type { LiveLayer } from './LiveLayer.ts';

/** A colour no object default uses, as Figma's and tldraw's guides stand out from the content. */
export const GUIDE_COLOR = '#E8178A';

const shapes = new WeakMap<LiveLayer, Konva.Shape>();

function shapeOf(live: LiveLayer): Konva.Shape {
  let shape = shapes.get(live);
  if (shape) return shape;
  shape = new Konva.Shape({
    name: 'snap-guides',
    listening: false,
    perfectDrawEnabled: false,
    guides: [],
    sceneFunc: (ctx, node) => {
      const guides = node.getAttr('guides') as Guide[];
      if (guides.length === 0) return;
      const c = (ctx as unknown as { _context: CanvasRenderingContext2D })._context;
      const scale = Math.abs(node.getAbsoluteScale().x) || 1;
      c.save();
      c.strokeStyle = GUIDE_COLOR;
      c.lineWidth = 1 / scale;
      c.beginPath();
      for (const g of guides) {
        if (g.axis === 'x') {
          c.moveTo(g.at, g.from);
          c.lineTo(g.at, g.to);
        } else {
          c.moveTo(g.from, g.at);
          c.lineTo(g.to, g.at);
        }
      }
      c.stroke();
      c.restore();
    },
  });
  live.layer.add(shape);
  shapes.set(live, shape);
  return shape;
}

export function showGuides(live: LiveLayer, guides: Guide[]): void {
  const shape = shapes.get(live);
  if (guides.length === 0 && (!shape || (shape.getAttr('guides') as Guide[]).length === 0)) return;
  const s = shape ?? shapeOf(live);
  s.setAttr('guides', guides);
  s.moveToTop();
  live.layer.batchDraw();
}

export const clearGuides = (live: LiveLayer): void => showGuides(live, []);
