/**
 * One state object per tool of §4. To add a tool: add its name to TOOLS in @wb/board-model
 * (constants.ts), write a class implementing ToolState here (its press answers a Gesture, see
 * ../tool.ts), and register it below; its button goes in Toolbar.tsx, its hotkey in TOOL_HOTKEYS.
 */
import type { Tool } from '@wb/board-model';
import type { EditorSession } from '../editing.ts';
import type { ToolContext, ToolState } from '../tool.ts';
import { DrawTool } from './DrawTool.ts';
import { EraserTool } from './EraserTool.ts';
import { ExportSelectTool } from './ExportSelectTool.ts';
import { HandTool } from './HandTool.ts';
import { ImageTool } from './ImageTool.ts';
import { SelectTool } from './SelectTool.ts';
import { ShapeTool } from './ShapeTool.ts';
import { TextTool } from './TextTool.ts';

export function createTools(ctx: ToolContext, editor: EditorSession): Record<Tool, ToolState> {
  return {
    select: new SelectTool(ctx, editor),
    hand: new HandTool(ctx),
    pen: new DrawTool(ctx, 'pen'),
    highlighter: new DrawTool(ctx, 'highlighter'),
    rectangle: new ShapeTool(ctx, 'rectangle'),
    ellipse: new ShapeTool(ctx, 'ellipse'),
    line: new ShapeTool(ctx, 'line'),
    text: new TextTool(ctx, editor, 'text'),
    sticky: new TextTool(ctx, editor, 'sticky'),
    image: new ImageTool(ctx),
    'export-select': new ExportSelectTool(ctx),
    eraser: new EraserTool(ctx),
  };
}
