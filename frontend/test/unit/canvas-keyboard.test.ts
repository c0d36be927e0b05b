import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HOTKEY_COLORS } from '@wb/board-model';
import { commandFor, type KeyLike } from '../../src/features/board/canvas/keyboard.ts';
import { CLEAR_CONFIRM_TEXT, editorCounter } from '../../src/features/board/canvas/texts.ts';

const key = (k: Partial<KeyLike> & { key: string }): KeyLike => ({
  code: '',
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...k,
});

describe('hotkeys of §9', () => {
  it('1–6 pick tools', () => {
    expect(['1', '2', '3', '4', '5', '6'].map((k) => commandFor(key({ key: k })))).toEqual([
      { kind: 'tool', tool: 'select' },
      { kind: 'tool', tool: 'hand' },
      { kind: 'tool', tool: 'pen' },
      { kind: 'tool', tool: 'highlighter' },
      { kind: 'tool', tool: 'sticky' },
      { kind: 'tool', tool: 'image' },
    ]);
    expect(commandFor(key({ key: '7' }))).toBeNull();
  });

  it('Alt+1..8 pick the eight colours by physical key', () => {
    for (let i = 1; i <= 8; i++) {
      expect(commandFor(key({ key: '¡', code: `Digit${i}`, altKey: true }))).toEqual({ kind: 'color', color: HOTKEY_COLORS[i - 1] });
    }
    expect(commandFor(key({ key: '9', code: 'Digit9', altKey: true }))).toBeNull();
  });

  it('undo, redo, delete, escape', () => {
    expect(commandFor(key({ key: 'z', code: 'KeyZ', ctrlKey: true }))).toEqual({ kind: 'undo' });
    expect(commandFor(key({ key: 'я', code: 'KeyZ', ctrlKey: true }))).toEqual({ kind: 'undo' });
    expect(commandFor(key({ key: 'Z', code: 'KeyZ', ctrlKey: true, shiftKey: true }))).toEqual({ kind: 'redo' });
    expect(commandFor(key({ key: 'y', code: 'KeyY', metaKey: true }))).toEqual({ kind: 'redo' });
    expect(commandFor(key({ key: 'Delete' }))).toEqual({ kind: 'delete' });
    expect(commandFor(key({ key: 'Backspace' }))).toEqual({ kind: 'delete' });
    expect(commandFor(key({ key: 'Escape' }))).toEqual({ kind: 'escape' });
    expect(commandFor(key({ key: 'c', code: 'KeyC', ctrlKey: true }))).toBeNull();
  });
});

describe('canvas texts', () => {
  it('are the spec strings', () => {
    const here = path.dirname(fileURLToPath(import.meta.url));
    const spec = readFileSync(path.resolve(here, '../../../../shared/spec/board-page.md'), 'utf8');
    expect(spec).toContain(`'${CLEAR_CONFIRM_TEXT}'`);
    expect(spec).toContain(`'${editorCounter(Number('0'), 500).replace('0/500', 'N/500')}'`);
  });
});
