/** Image: a press asks the page for a file (the image lands where the board was pressed). */
import { insideOrExplain } from '../outside.ts';
import type { PointerInfo, ToolContext, ToolState } from '../tool.ts';

export class ImageTool implements ToolState {
  constructor(private readonly ctx: ToolContext) {}

  down({ board }: PointerInfo): null {
    if (insideOrExplain(this.ctx, board)) this.ctx.pickImage(board);
    return null;
  }
}
