/** Recolouring the selection (Alt+1..8 and the palette): which field the colour lands in, per type. */
import type { CanvasObject } from '../objects.ts';
import type { ObjectPatch } from '../ydoc.ts';

export function colorPatch(obj: CanvasObject, color: string): ObjectPatch {
  switch (obj.type) {
    case 'sticky':
      return { backgroundColor: color };
    case 'text':
      return { fill: color };
    case 'image':
      return {};
    default:
      return { stroke: color };
  }
}
