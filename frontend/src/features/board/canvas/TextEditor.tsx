import { useLayoutEffect, useRef } from 'react';
import type { Awareness } from 'y-protocols/awareness';
import { SCENE_FONT_FAMILY, SCENE_LINE_HEIGHT, SCENE_STYLE, measureText, type StickyObject, type TextObject } from '@wb/board-model';
import type { CanvasEngine, EditRequest } from './engine/CanvasEngine.ts';
import { TextareaBinding } from './textBinding.ts';
import { LABELS, editorCounter } from './texts.ts';
import styles from './TextEditor.module.css';

export interface TextEditorProps {
  engine: CanvasEngine;
  request: EditRequest;
  /** Where the caret is published for the others (RemoteCarets.tsx). */
  awareness?: Awareness | null;
}

/** How the textarea must look to put the glyphs where the canvas draws them (board units, before the camera's scale). */
function layout(obj: StickyObject | TextObject, value: string) {
  const font = `${obj.fontSize}px "${SCENE_FONT_FAMILY}", Arial, sans-serif`;
  const lineHeight = obj.fontSize * SCENE_LINE_HEIGHT;
  if (obj.type === 'sticky') {
    return {
      key: `s|${obj.width}|${obj.height}|${obj.fontSize}|${obj.textAlign}|${obj.backgroundColor}|${obj.textColor}`,
      width: obj.width,
      height: obj.height,
      style: {
        font,
        lineHeight: `${lineHeight}px`,
        padding: `${SCENE_STYLE.stickyPadding}px`,
        textAlign: obj.textAlign,
        color: obj.textColor,
        background: obj.backgroundColor,
        borderRadius: `${SCENE_STYLE.stickyCornerRadius}px`,
        whiteSpace: 'pre-wrap',
      },
    };
  }
  // A text object is not wrapped: as wide as its longest line, plus room for the caret.
  const lines = value.split('\n');
  const width = Math.max(...lines.map((l) => measureText(l, obj.fontSize))) + obj.fontSize;
  return {
    key: `t|${obj.fontSize}|${obj.fill}|${lines.length}|${Math.round(width)}`,
    width,
    height: lines.length * lineHeight,
    style: { font, lineHeight: `${lineHeight}px`, padding: '0', textAlign: 'left', color: obj.fill, background: 'transparent', borderRadius: '0', whiteSpace: 'pre' },
  };
}

/**
 * The sticky/text editor (§5, issue 35 item 4): a textarea laid exactly over the object at the
 * camera's scale, in the painter's font, size, padding and wrap, while the canvas draws the object
 * without its text. Every keystroke is in the document (textBinding.ts); there is no Save. The
 * counter 'N/max символов' counts against the model's limit (4096 for a sticky, 500 for a text).
 * Ctrl+Enter or a press outside close it; Escape too (a new object it added goes again); Ctrl+Z
 * and Ctrl+Y are the board's undo and redo.
 */
export function TextEditor({ engine, request, awareness }: TextEditorProps) {
  const box = useRef<HTMLDivElement>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  const counter = useRef<HTMLDivElement>(null);

  // A layout effect, so the outside-press listener is there as soon as the editor is on screen: a
  // passive effect (run after paint) left a gap in which a quick press outside was lost and the
  // editor stayed open (CI saw it under load). Nothing here depends on re-renders: the parent may
  // re-render on every pointer move, and an editor that opened again lost the typed letters.
  useLayoutEffect(() => {
    const el = area.current!;
    const session = engine.editor;
    const limit = session.limit();
    const showCount = () => {
      counter.current!.textContent = editorCounter(el.value.length, limit);
    };
    const binding = new TextareaBinding(el, {
      session,
      doc: engine.doc,
      awareness,
      changed: () => {
        showCount();
        counter.current!.dataset.refused = 'false';
      },
      refused: () => {
        counter.current!.dataset.refused = 'true';
        engine.message(LABELS.textLimit(limit), 'error');
      },
      gone: () => session.close(),
      undo: () => engine.commands.undo(),
      redo: () => engine.commands.redo(),
    });
    showCount();
    el.focus();
    if (request.isNew) el.select();
    else el.setSelectionRange(el.value.length, el.value.length);
    binding.start();

    // The press that opened the editor may still be in dispatch; it must not close it again.
    const openedAt = performance.now();
    const outside = (e: PointerEvent) => {
      if (e.timeStamp < openedAt || !box.current || box.current.contains(e.target as Node)) return;
      // The press that closes the editor must not also start a tool on the canvas (a new sticky).
      if ((e.target as Element).closest?.('[data-testid="canvas-stage"]')) e.stopPropagation();
      session.close();
    };
    document.addEventListener('pointerdown', outside, true);

    // Follows the object and the camera every frame (a pan or zoom while typing, a remote move).
    let frame = 0;
    let styled = '';
    const place = () => {
      frame = requestAnimationFrame(place);
      const obj = (engine.scene.object(request.object.id) ?? request.object) as StickyObject | TextObject;
      const at = engine.toScreen({ x: obj.x, y: obj.y });
      const scale = engine.camera.scale;
      const l = layout(obj, el.value);
      if (l.key !== styled) {
        styled = l.key;
        Object.assign(el.style, l.style);
        box.current!.style.width = `${l.width}px`;
        box.current!.style.height = `${l.height}px`;
      }
      box.current!.style.transform = `translate(${at.x}px, ${at.y}px) scale(${scale})`;
      counter.current!.style.transform = `translate(${at.x}px, ${at.y + l.height * scale + 6}px)`;
    };
    place();
    return () => {
      cancelAnimationFrame(frame);
      document.removeEventListener('pointerdown', outside, true);
      binding.destroy();
    };
    // One editor per request (the parent keys it by the object's id).
  }, []);

  return (
    <>
      <div ref={box} className={styles.box} data-testid="text-editor" data-object-id={request.object.id}>
        <textarea
          ref={area}
          className={styles.area}
          aria-label={LABELS.editorTitle}
          spellCheck={false}
          data-testid="text-editor-input"
          onKeyDown={(e) => {
            const mod = e.ctrlKey || e.metaKey;
            // By the key's place, so a Russian layout undoes too.
            const key = e.code;
            if (e.key === 'Enter' && mod) {
              e.preventDefault();
              engine.editor.finish();
            } else if (e.key === 'Escape') {
              e.preventDefault();
              engine.editor.cancel();
            } else if (mod && key === 'KeyZ' && !e.shiftKey) {
              e.preventDefault();
              engine.commands.undo();
            } else if (mod && (key === 'KeyY' || (key === 'KeyZ' && e.shiftKey))) {
              e.preventDefault();
              engine.commands.redo();
            }
          }}
        />
      </div>
      <div ref={counter} className={styles.counter} data-testid="text-editor-counter" role="status" />
    </>
  );
}
