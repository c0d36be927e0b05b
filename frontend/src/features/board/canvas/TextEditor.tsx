import { useLayoutEffect, useRef, useState } from 'react';
import { EDITOR_TEXT_MAX } from '@wb/board-model';
import { Button } from '../../../components/ui/index.ts';
import type { EditRequest } from './engine/CanvasEngine.ts';
import { LABELS, editorCounter } from './texts.ts';
import styles from './canvas.module.css';

export interface TextEditorProps {
  request: EditRequest;
  /** Where the edited object is on screen, relative to the canvas. */
  at: { x: number; y: number; width: number; height: number };
  onSave: (text: string) => void;
  onCancel: () => void;
}

/**
 * The sticky/text editor popup of §5: at most 500 characters with the 'N/500 символов' counter;
 * Ctrl+Enter saves, Escape or a click outside cancels.
 */
export function TextEditor({ request, at, onSave, onCancel }: TextEditorProps) {
  const [text, setText] = useState(() => request.object.text.slice(0, EDITOR_TEXT_MAX));
  const panel = useRef<HTMLDivElement>(null);
  const area = useRef<HTMLTextAreaElement>(null);

  // The parent passes a new onCancel on every render: read through a ref so a re-render while the
  // user types never runs the focus-and-select again (it selected the typed text, and the next key
  // replaced it — the first letters were lost).
  const cancel = useRef(onCancel);
  cancel.current = onCancel;

  // A layout effect, so the outside-press listener is there as soon as the editor is on screen: a
  // passive effect (run after paint) plus a timer left a gap in which a quick press outside was
  // lost and the editor stayed open (CI saw it under load).
  useLayoutEffect(() => {
    area.current?.focus();
    area.current?.select();
    // The press that opened the editor may still be in dispatch; it must not close it again.
    const openedAt = performance.now();
    const outside = (e: PointerEvent) => {
      if (e.timeStamp < openedAt || !panel.current || panel.current.contains(e.target as Node)) return;
      // The press that closes the editor must not also start a tool on the canvas (a new sticky).
      if ((e.target as Element).closest?.('[data-testid="canvas-stage"]')) e.stopPropagation();
      cancel.current();
    };
    document.addEventListener('pointerdown', outside, true);
    return () => document.removeEventListener('pointerdown', outside, true);
  }, []);

  const sticky = request.object.type === 'sticky' ? request.object : null;
  return (
    <div
      ref={panel}
      className={styles.editor}
      style={{ left: at.x, top: at.y + at.height + 8 > 0 ? at.y : 8 }}
      data-testid="text-editor"
      role="dialog"
      aria-label={LABELS.editorTitle}
    >
      <textarea
        ref={area}
        className={styles.editorArea}
        style={sticky ? { background: sticky.backgroundColor, color: sticky.textColor } : undefined}
        value={text}
        maxLength={EDITOR_TEXT_MAX}
        aria-label={LABELS.editorTitle}
        data-testid="text-editor-input"
        onChange={(e) => setText(e.target.value.slice(0, EDITOR_TEXT_MAX))}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            onSave(text);
          } else if (e.key === 'Escape') {
            e.preventDefault();
            onCancel();
          }
        }}
      />
      <div className={styles.editorFooter}>
        <span className={styles.counter} data-testid="text-editor-counter">
          {editorCounter(text.length, EDITOR_TEXT_MAX)}
        </span>
        <Button size="sm" variant="ghost" onClick={onCancel}>
          {LABELS.cancel}
        </Button>
        <Button size="sm" variant="primary" onClick={() => onSave(text)} data-testid="text-editor-save">
          {LABELS.save}
        </Button>
      </div>
    </div>
  );
}
