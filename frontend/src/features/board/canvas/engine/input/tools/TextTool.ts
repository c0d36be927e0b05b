/** Sticky and text: a press opens the editor on a new object there (input/editing.ts). */
import { insideOrExplain } from '../outside.ts';
import type { EditorSession } from '../editing.ts';
import type { PointerInfo, ToolContext, ToolState } from '../tool.ts';

export class TextTool implements ToolState {
  constructor(
    private readonly ctx: ToolContext,
    private readonly editor: EditorSession,
    private readonly kind: 'sticky' | 'text',
  ) {}

  down({ board, event }: PointerInfo): null {
    if (!insideOrExplain(this.ctx, board)) return null;
    // No compatibility mousedown: its default action would move focus out of the editor it opens.
    event.preventDefault();
    this.editor.startNew(this.kind, board);
    return null;
  }
}
