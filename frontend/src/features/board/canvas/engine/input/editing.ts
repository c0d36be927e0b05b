/**
 * The sticky/text editor session: which object the editor popup (TextEditor.tsx) is open on. A new
 * object lives only on the live layer until Save, then reaches the document as one command (with
 * the arrow of a connected sticker); an existing one gets its text.
 */
import {
  DEFAULT_TEXT_COLOR,
  boundsOf,
  cleanText,
  connectedSticky,
  isEditable,
  isInsideCanvas,
  newId,
  newSticky,
  newText,
  nextZIndex,
  type ArrowInput,
  type Point,
  type Side,
  type StickyObject,
  type TextObject,
} from '@wb/board-model';
import type { ToolContext } from './tool.ts';

export interface EditRequest {
  object: StickyObject | TextObject;
  isNew: boolean;
  /** A connected sticker: the arrow from this sticky to the new one is added with it. */
  linkFrom?: string;
}

export class EditorSession {
  request: EditRequest | null = null;

  constructor(
    private readonly ctx: ToolContext,
    /** The page shows (or, with null, hides) the editor. */
    private readonly announce: (request: EditRequest | null) => void,
  ) {}

  open(request: EditRequest): void {
    this.request = request;
    if (request.isNew) this.ctx.live.setTemp(request.object);
    this.announce(request);
  }

  /** A press of the sticky or text tool: a new object there, unless it would leave a bounded canvas. */
  startNew(tool: 'sticky' | 'text', at: Point): void {
    const { doc, style } = this.ctx;
    const base = { id: newId(), zIndex: nextZIndex(doc) };
    const obj =
      tool === 'sticky'
        ? newSticky(at, style, base)
        : newText(at, { color: style.color === '#FFFFFF' ? DEFAULT_TEXT_COLOR : style.color, fontSize: style.fontSize }, base);
    if (!isInsideCanvas(boundsOf(obj), this.ctx.limits)) return;
    this.open({ object: obj, isNew: true });
  }

  /** An existing sticky or text (double click, the context menu's "edit"). */
  edit(id: string): void {
    const obj = this.ctx.scene.object(id);
    if (this.ctx.readOnly || !obj || !isEditable(obj)) return;
    this.open({ object: obj, isNew: false });
  }

  /** A connected sticker (§4): a new sticky beside the selected one, linked by an arrow on save. */
  connectSticky(side: Side): void {
    const [only] = this.ctx.selectedObjects();
    if (this.ctx.readOnly || this.ctx.selection.size !== 1 || only?.type !== 'sticky') return;
    const obj = connectedSticky(only, side, { id: newId(), zIndex: nextZIndex(this.ctx.doc) });
    this.open({ object: obj, isNew: true, linkFrom: only.id });
  }

  /** The editor's Save: a new object is added (with its connecting arrow), an existing one gets the text. */
  finish(typed: string): void {
    const { ctx } = this;
    const text = cleanText(typed);
    const req = this.request;
    this.request = null;
    this.announce(null);
    ctx.live.setTemp(null);
    if (!req || ctx.readOnly) return;
    if (!req.isNew) {
      ctx.commands.setText(req.object.id, text);
      return;
    }
    const obj = { ...req.object, text };
    const arrows: ArrowInput[] = req.linkFrom ? [ctx.commands.arrowInput(req.linkFrom, obj.id)] : [];
    ctx.commands.add([obj], arrows);
    if (obj.type === 'sticky') ctx.setTool('select');
    ctx.setSelection([obj.id]);
  }

  cancel(): void {
    this.request = null;
    this.announce(null);
    this.ctx.live.setTemp(null);
  }
}
