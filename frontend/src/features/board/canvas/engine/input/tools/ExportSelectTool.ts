/** export-select (hidden; entered from the export menu): a band over 10×10 goes to the export, then back to select. */
import { EXPORT_AREA_MIN } from '@wb/board-model';
import type { Gesture, PointerInfo, ToolContext, ToolState } from '../tool.ts';
import { BrushGesture } from './brush.ts';

export class ExportSelectTool implements ToolState {
  constructor(private readonly ctx: ToolContext) {}

  down({ board }: PointerInfo): Gesture {
    return new BrushGesture(this.ctx, board, (r) => {
      if (r.width > EXPORT_AREA_MIN && r.height > EXPORT_AREA_MIN) {
        this.ctx.exportArea(r);
        this.ctx.setTool('select');
      }
    });
  }
}
