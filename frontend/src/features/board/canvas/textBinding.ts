/**
 * Binds the in-place editor's textarea to the edited object's Y.Text (issue 35 item 4). Each local
 * input event becomes one splice applied at its index (diffText), so two people typing in one sticky
 * both keep their words; a remote change is written into the textarea keeping the local caret where
 * it was among the characters (Y.RelativePosition). The caret is published in awareness (`caret`)
 * for the other clients to draw (RemoteCarets.tsx).
 */
import * as Y from 'yjs';
import type { Awareness } from 'y-protocols/awareness';
import { diffText, getObjects, moveIndex } from '@wb/board-model';
import type { EditorSession } from './engine/input/editing.ts';

/** The awareness field: which object this client's caret is in, and where. */
export interface CaretState {
  id: string;
  /** UTF-16 index when published (read when `rel` cannot be resolved). */
  index: number;
  /** Y.relativePositionToJSON of the caret in the object's Y.Text (null while the text is a plain string). */
  rel: unknown;
}
export const CARET_FIELD = 'caret';

export interface BindingHost {
  session: EditorSession;
  doc: Y.Doc;
  awareness?: Awareness | null;
  /** The text changed (locally or remotely): sizes and the counter follow. */
  changed(value: string): void;
  /** A local edit was refused: it would pass the model's limit. */
  refused(): void;
  /** The object is gone (deleted by someone). */
  gone(): void;
  undo(): void;
  redo(): void;
}

export class TextareaBinding {
  /** What the textarea held when it last matched the document. */
  private value: string;
  private applying = false;
  private bound: Y.Map<unknown> | null = null;
  private caret: { start: Y.RelativePosition; end: Y.RelativePosition } | null = null;
  private before: { start: number; end: number; dir: 'forward' | 'backward' | 'none' } = { start: 0, end: 0, dir: 'none' };
  private published = '';
  private readonly id: string;

  constructor(
    private readonly el: HTMLTextAreaElement,
    private readonly host: BindingHost,
  ) {
    this.id = host.session.request!.object.id;
    this.value = host.session.text();
    el.value = this.value;
    el.addEventListener('beforeinput', this.onBeforeInput);
    el.addEventListener('input', this.onInput);
    document.addEventListener('selectionchange', this.onSelection);
    getObjects(host.doc).observe(this.onObjects);
    this.bind();
  }

  destroy(): void {
    this.el.removeEventListener('beforeinput', this.onBeforeInput);
    this.el.removeEventListener('input', this.onInput);
    document.removeEventListener('selectionchange', this.onSelection);
    getObjects(this.host.doc).unobserve(this.onObjects);
    this.bound?.unobserveDeep(this.onMap);
    this.host.awareness?.setLocalStateField(CARET_FIELD, null);
  }

  /** Follows the object's map once it is in the document (a new object's first edit adds it). */
  private bind(): void {
    const map = this.host.session.map();
    if (map === this.bound) return;
    this.bound?.unobserveDeep(this.onMap);
    this.bound = map;
    map?.observeDeep(this.onMap);
  }

  private readonly onBeforeInput = (e: InputEvent) => {
    const { el } = this;
    if (e.inputType === 'historyUndo' || e.inputType === 'historyRedo') {
      // The document's history, not the textarea's: it knows the other people's edits.
      e.preventDefault();
      if (e.inputType === 'historyUndo') this.host.undo();
      else this.host.redo();
      return;
    }
    this.before = { start: el.selectionStart, end: el.selectionEnd, dir: el.selectionDirection };
  };

  private readonly onInput = () => {
    const { el, host } = this;
    const typed = el.value;
    const splice = diffText(this.value, typed, el.selectionEnd);
    if (!splice) return;
    this.applying = true;
    let result;
    try {
      result = host.session.splice(splice);
    } finally {
      this.applying = false;
    }
    if (result === 'closed') return;
    if (result === 'limit') {
      el.value = this.value;
      el.setSelectionRange(this.before.start, this.before.end, this.before.dir);
      host.refused();
      return;
    }
    this.bind();
    const stored = host.session.text();
    if (stored !== typed) {
      // The document cleaned what was typed (a control character): show what everyone gets.
      const caret = Math.min(stored.length, splice.index + (stored.length - (this.value.length - splice.remove)));
      el.value = stored;
      el.setSelectionRange(caret, caret);
    }
    this.value = stored;
    this.saveCaret();
    host.changed(stored);
  };

  private readonly onSelection = () => {
    if (document.activeElement === this.el) this.saveCaret();
  };

  private readonly onObjects = (event: Y.YMapEvent<Y.Map<unknown>>) => {
    if (this.bound && event.keysChanged.has(this.id) && !getObjects(this.host.doc).has(this.id)) this.host.gone();
  };

  private readonly onMap = () => {
    if (!this.applying) this.pull();
  };

  /** Writes the document's text into the textarea, keeping the local caret among its characters. */
  private pull(): void {
    const { el, host } = this;
    const next = host.session.text();
    if (next === this.value) return;
    const text = host.session.yText();
    const resolve = (rel: Y.RelativePosition | undefined): number | null => {
      const abs = rel && text ? Y.createAbsolutePositionFromRelativePosition(rel, host.doc) : null;
      return abs && abs.type === text ? abs.index : null;
    };
    let start = resolve(this.caret?.start);
    let end = resolve(this.caret?.end);
    if (start === null || end === null) {
      // The text was replaced (an old plain string made a Y.Text by someone, an undo): by the diff.
      const splice = diffText(this.value, next);
      start = splice ? moveIndex(el.selectionStart, splice) : el.selectionStart;
      end = splice ? moveIndex(el.selectionEnd, splice) : el.selectionEnd;
    }
    const dir = el.selectionDirection;
    el.value = next;
    this.value = next;
    el.setSelectionRange(Math.min(start, end), Math.max(start, end), dir);
    this.saveCaret();
    host.changed(next);
  }

  /** Remembers the caret relative to the characters around it, and tells the others where it is. */
  private saveCaret(): void {
    const { el, host } = this;
    const text = host.session.yText();
    const start = el.selectionStart;
    const end = el.selectionEnd;
    // assoc -1: the caret stays after the character on its left, so words others insert right at it
    // land after it and the local typing goes on where it was.
    this.caret = text
      ? { start: Y.createRelativePositionFromTypeIndex(text, start, -1), end: Y.createRelativePositionFromTypeIndex(text, end, -1) }
      : null;
    const awareness = host.awareness;
    if (!awareness) return;
    const head = el.selectionDirection === 'backward' ? start : end;
    const state: CaretState = {
      id: this.id,
      index: head,
      rel: text ? Y.relativePositionToJSON(Y.createRelativePositionFromTypeIndex(text, head, -1)) : null,
    };
    const key = JSON.stringify(state);
    if (key === this.published) return;
    this.published = key;
    awareness.setLocalStateField(CARET_FIELD, state);
  }

  /** After mount: the caret is known once the textarea has the focus. */
  start(): void {
    this.saveCaret();
  }
}
