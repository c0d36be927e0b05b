/**
 * What a paste does when the clipboard holds neither board objects nor an image (issue 35 item 5;
 * the spec is silent, decisions.md): a plain text becomes a text object at the pointer (when it is
 * over the board) or at the view's centre, one undo step, selected; anything else — a file that is
 * not an image, HTML without plain text, nothing — is told why in a toast. Never cut: a text over
 * the text object's limit is refused with its length and the limit.
 */
import { PASTE_TEXT_MAX, newId, nextZIndex, planTextPaste, type Point } from '@wb/board-model';
import { PASTE_TEXTS } from '../../texts.ts';
import type { CanvasEngine } from '../CanvasEngine.ts';

/** The last pointer position in the page (client px); a paste has no position of its own. */
let lastPointer: { x: number; y: number } | null = null;
if (typeof document !== 'undefined') {
  document.addEventListener('pointermove', (e) => (lastPointer = { x: e.clientX, y: e.clientY }), { capture: true, passive: true });
  document.addEventListener('pointerdown', (e) => (lastPointer = { x: e.clientX, y: e.clientY }), { capture: true, passive: true });
}

/** The board point under the pointer when the pointer is on this board's canvas (not on a bar above it). */
function pointerOnBoard(engine: CanvasEngine): Point | null {
  if (!lastPointer) return null;
  const under = document.elementFromPoint(lastPointer.x, lastPointer.y);
  if (!under || !engine.container.contains(under)) return null;
  const r = engine.container.getBoundingClientRect();
  return engine.toBoard({ x: lastPointer.x - r.left, y: lastPointer.y - r.top });
}

/** Why nothing of `data` can be pasted (called when it held no board objects and no image). */
function refusal(data: DataTransfer | null, text: string): string {
  if (!data) return PASTE_TEXTS.empty;
  const file = [...data.items].find((i) => i.kind === 'file')?.getAsFile();
  if (file) return PASTE_TEXTS.file(file.name || file.type || '?');
  if (text !== '') return PASTE_TEXTS.blank;
  if (data.types.includes('text/html')) return PASTE_TEXTS.html;
  return data.types.length === 0 ? PASTE_TEXTS.empty : PASTE_TEXTS.other;
}

/** The end of a paste that was not ours and not an image: a text object, or a toast saying why not. */
export function pasteOther(engine: CanvasEngine, data: DataTransfer | null, text: string): void {
  if (engine.readOnly) return;
  const say = (t: string) => engine.message(t, 'error');
  const hasFile = !!data && [...data.items].some((i) => i.kind === 'file');
  if (hasFile || text.trim() === '') {
    say(refusal(data, text));
    return;
  }
  const at = pointerOnBoard(engine) ?? engine.viewportCentre();
  const plan = planTextPaste(text, at, engine.style, engine.limits, { id: newId(), zIndex: nextZIndex(engine.doc) });
  if (!plan.ok) {
    say(plan.reason === 'too-long' ? PASTE_TEXTS.tooLong(plan.length, PASTE_TEXT_MAX) : PASTE_TEXTS.blank);
    return;
  }
  engine.commands.add([plan.object]);
  engine.setSelection([plan.object.id]);
}
