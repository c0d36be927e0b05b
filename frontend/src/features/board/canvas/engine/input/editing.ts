/**
 * The sticky/text editor session: which object is edited in place (TextEditor.tsx is the textarea
 * over it). Every keystroke is in the document (issue 35 item 4): an edit is a splice of the
 * object's Y.Text, one transaction with the local origin. A new object lives only on the live layer
 * until its first edit (or Ctrl+Enter), which adds it — with the arrow of a connected sticker — as
 * one command; closing it untouched leaves nothing (§4: cancel removes it).
 * Keys (§5, and docs/decisions.md "Text edited in place"): Ctrl+Enter and a press outside close the
 * editor, keeping what was typed; Escape cancels: it takes back this user's typing of the session
 * (others' words stay) and removes a new object it created.
 */
import * as Y from 'yjs';
import {
  DEFAULT_TEXT_COLOR,
  applySplice,
  boundsOf,
  cleanText,
  connectedSticky,
  deleteObjects,
  editableText,
  getArrows,
  getObjects,
  isEditable,
  newId,
  newSticky,
  newText,
  nextZIndex,
  spliceFits,
  storedText,
  textLimitOf,
  type ArrowInput,
  type Point,
  type Side,
  type StickyObject,
  type TextObject,
  type TextSplice,
} from '@wb/board-model';
import type { CommandContext } from '../commands.ts';
import type { ToolContext } from './tool.ts';
import { fitsOrExplain } from './outside.ts';

export interface EditRequest {
  object: StickyObject | TextObject;
  isNew: boolean;
  /** A connected sticker: the arrow from this sticky to the new one is added with it. */
  linkFrom?: string;
}

export type EditorContext = ToolContext & Pick<CommandContext, 'origin' | 'history' | 'message'>;

/**
 * While the editor is open, changes less than this apart are one undo step (a burst of typing is
 * undone at once; a pause starts a new step); elsewhere every command is its own step.
 */
export const TYPING_MERGE_MS = 1000;

/** The origin of turning an old plain-string text into a Y.Text (tracked by no undo manager). */
export const TEXT_UPGRADE_ORIGIN = 'text-upgrade';

/** What became of a local edit. */
export type SpliceResult = 'ok' | 'limit' | 'closed';

export class EditorSession {
  request: EditRequest | null = null;
  /** The new object of the request is in the document (its first edit added it). */
  private created = false;
  /** This user's changes to an existing object since the editor opened, for Escape to take back. */
  private session: Y.UndoManager | null = null;

  constructor(
    private readonly ctx: EditorContext,
    /** The page shows (or, with null, hides) the editor. */
    private readonly announce: (request: EditRequest | null) => void,
  ) {}

  open(request: EditRequest): void {
    if (this.request) this.close();
    const { ctx } = this;
    this.request = request;
    this.created = false;
    // The editor shows the text: the canvas draws the object without it.
    if (request.isNew) ctx.live.setTemp({ ...request.object, text: '' });
    else ctx.scene.hideText(request.object.id, true);
    const map = request.isNew ? null : this.map();
    // One step for the whole session: only the local origin's changes, so Escape never undoes others' words.
    this.session = map ? new Y.UndoManager(map, { trackedOrigins: new Set([ctx.origin]), captureTimeout: Number.MAX_SAFE_INTEGER }) : null;
    ctx.history.stopCapturing();
    ctx.history.captureTimeout = TYPING_MERGE_MS;
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
    if (!fitsOrExplain(this.ctx, boundsOf(obj))) return;
    this.open({ object: obj, isNew: true });
  }

  /** An existing sticky or text (double click, the context menu's "edit"). */
  edit(id: string): void {
    const obj = this.ctx.scene.object(id);
    if (this.ctx.readOnly || !obj || !isEditable(obj)) return;
    this.open({ object: obj, isNew: false });
  }

  /** A connected sticker (§4): a new sticky beside the selected one, linked by an arrow when it is added. */
  connectSticky(side: Side): void {
    const [only] = this.ctx.selectedObjects();
    if (this.ctx.readOnly || this.ctx.selection.size !== 1 || only?.type !== 'sticky') return;
    const obj = connectedSticky(only, side, { id: newId(), zIndex: nextZIndex(this.ctx.doc) });
    // Beside a sticky at the board's edge there may be no room: said, not silently refused at the first keystroke.
    if (!fitsOrExplain(this.ctx, boundsOf(obj))) return;
    this.open({ object: obj, isNew: true, linkFrom: only.id });
  }

  /** The edited object's map in the document, or null (a new object not added yet, or deleted by someone). */
  map(): Y.Map<unknown> | null {
    const id = this.request?.object.id;
    const value: unknown = id ? getObjects(this.ctx.doc).get(id) : undefined;
    return value instanceof Y.Map ? (value as Y.Map<unknown>) : null;
  }

  /** The edited object's Y.Text, or null while it is a plain string (an old board) or not in the document. */
  yText(): Y.Text | null {
    const map = this.map();
    const t = map ? storedText(map) : null;
    return t instanceof Y.Text ? t : null;
  }

  /** The text as it is now: the document's, or the new object's before its first edit. */
  text(): string {
    const req = this.request;
    if (!req) return '';
    if (req.isNew && !this.created) return req.object.text;
    const map = this.map();
    const t = map ? storedText(map) : null;
    return t === null ? '' : t.toString();
  }

  /** The most characters the model stores for the edited object. */
  limit(): number {
    return textLimitOf(this.request?.object.type ?? 'sticky');
  }

  /** A local edit (one input event). Refused beyond the model's limit; nothing is ever cut. */
  splice(splice: TextSplice): SpliceResult {
    const req = this.request;
    const { ctx } = this;
    if (!req || ctx.readOnly) return 'closed';
    const before = this.text();
    if (!spliceFits(before.length, splice, this.limit())) return 'limit';
    if (req.isNew && !this.created) {
      const text = before.slice(0, splice.index) + cleanText(splice.insert) + before.slice(splice.index + splice.remove);
      this.create(text);
      return 'ok';
    }
    const map = this.map();
    if (!map) return 'closed';
    // An old board's plain string becomes a Y.Text in a transaction no history tracks: an undo (or
    // Escape) must never turn it back into a string under the words someone else typed into it since.
    if (!(storedText(map) instanceof Y.Text)) ctx.doc.transact(() => editableText(map), TEXT_UPGRADE_ORIGIN);
    ctx.doc.transact(() => applySplice(editableText(map), splice), ctx.origin);
    return 'ok';
  }

  /** Adds the new object (with its connecting arrow) as one command. */
  private create(text: string): void {
    const { ctx } = this;
    const req = this.request!;
    const obj = { ...req.object, text };
    const arrows: ArrowInput[] = req.linkFrom ? [ctx.commands.arrowInput(req.linkFrom, obj.id)] : [];
    ctx.scene.hideText(obj.id, true);
    ctx.commands.add([obj], arrows);
    ctx.live.setTemp(null);
    this.created = true;
  }

  /** Ctrl+Enter: a new object untouched so far is added as it is; the editor closes. */
  finish(): void {
    const req = this.request;
    if (req?.isNew && !this.created && !this.ctx.readOnly) this.create(req.object.text);
    this.close();
  }

  /** Escape: closes the editor taking back this user's typing; a new object it added goes again (§4: cancel removes it). */
  cancel(): void {
    const req = this.request;
    if (req && !req.isNew) this.session?.undo();
    if (req?.isNew && this.created) {
      const { ctx } = this;
      const id = req.object.id;
      ctx.doc.transact(() => {
        deleteObjects(ctx.doc, [id], ctx.origin);
        const arrows = getArrows(ctx.doc);
        if (arrows.has(id)) arrows.delete(id);
      }, ctx.origin);
      this.created = false;
    }
    this.close();
  }

  /**
   * Closes the editor (a press outside, the object deleted by someone): what was typed is in the
   * document already; a new object never edited is not created.
   */
  close(): void {
    const req = this.request;
    if (!req) return;
    const { ctx } = this;
    const keep = req.isNew && this.created && this.map() !== null;
    this.request = null;
    this.created = false;
    this.session?.destroy();
    this.session = null;
    ctx.live.setTemp(null);
    ctx.scene.hideText(req.object.id, false);
    ctx.history.stopCapturing();
    ctx.history.captureTimeout = 0;
    this.announce(null);
    if (keep) {
      if (req.object.type === 'sticky') ctx.setTool('select');
      ctx.setSelection([req.object.id]);
    }
  }
}
