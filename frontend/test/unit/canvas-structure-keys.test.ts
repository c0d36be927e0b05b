import { describe, expect, it } from 'vitest';
import { TOOL_HOTKEYS } from '@wb/board-model';
import { commandFor, type KeyLike } from '../../src/features/board/canvas/keyboard.ts';

const key = (k: Partial<KeyLike> & { key: string }): KeyLike => ({ code: '', ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...k });

describe('structure hotkeys (issue 35 item 5)', () => {
  it('Ctrl+] / Ctrl+[ step, with Shift to the front / back, by the physical key (a Russian layout too)', () => {
    expect(commandFor(key({ key: ']', code: 'BracketRight', ctrlKey: true }))).toEqual({ kind: 'structure', action: 'forward' });
    expect(commandFor(key({ key: 'х', code: 'BracketLeft', ctrlKey: true }))).toEqual({ kind: 'structure', action: 'backward' });
    expect(commandFor(key({ key: '}', code: 'BracketRight', ctrlKey: true, shiftKey: true }))).toEqual({ kind: 'structure', action: 'front' });
    expect(commandFor(key({ key: '{', code: 'BracketLeft', metaKey: true, shiftKey: true }))).toEqual({ kind: 'structure', action: 'back' });
  });

  it('Ctrl+G groups, Ctrl+Shift+G ungroups; without Ctrl the keys do nothing of this', () => {
    expect(commandFor(key({ key: 'п', code: 'KeyG', ctrlKey: true }))).toEqual({ kind: 'structure', action: 'group' });
    expect(commandFor(key({ key: 'G', code: 'KeyG', ctrlKey: true, shiftKey: true }))).toEqual({ kind: 'structure', action: 'ungroup' });
    expect(commandFor(key({ key: ']', code: 'BracketRight' }))).toBeNull();
    expect(commandFor(key({ key: 'g', code: 'KeyG' }))).toBeNull();
    // Undo and redo are untouched.
    expect(commandFor(key({ key: 'z', code: 'KeyZ', ctrlKey: true }))).toEqual({ kind: 'undo' });
  });

  it('E picks the eraser, and no other tool had E', () => {
    expect(commandFor(key({ key: 'e', code: 'KeyE' }))).toEqual({ kind: 'tool', tool: 'eraser' });
    expect(Object.entries(TOOL_HOTKEYS).filter(([, t]) => t === 'eraser')).toEqual([['e', 'eraser']]);
  });
});
