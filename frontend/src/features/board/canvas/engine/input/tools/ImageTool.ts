/** Image: a press asks the page for a file (the image lands where the board was pressed). */
import { isPointInsideCanvas } from '@wb/board-model';
import type { PointerInfo, ToolContext, ToolState } from '../tool.ts';

export class ImageTool implements ToolState {
  constructor(private readonly ctx: ToolContext) {}

  down({ board }: PointerInfo): null {
    if (isPointInsideCanvas(board, this.ctx.limits)) this.ctx.pickImage(board);
    return null;
  }
}
