import { describe, expect, it } from 'vitest';
import { commandFor, type KeyLike } from '../../src/features/board/canvas/keyboard.ts';

const key = (k: Partial<KeyLike> & { key: string }): KeyLike => ({
  code: '',
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...k,
});

describe('Shift+1 / Shift+2 (issue 35 item 5)', () => {
  it('zoom to fit and to selection by the physical key, whatever the layout makes of Shift+digit', () => {
    for (const k of ['!', '1'])
      expect(commandFor(key({ key: k, code: 'Digit1', shiftKey: true }))).toEqual({ kind: 'zoomToFit' });
    for (const k of ['@', '"', '2']) {
      expect(commandFor(key({ key: k, code: 'Digit2', shiftKey: true }))).toEqual({
        kind: 'zoomToSelection',
      });
    }
  });

  it('the digits alone still pick tools; Ctrl or Alt with Shift+digit is not a zoom', () => {
    expect(commandFor(key({ key: '1', code: 'Digit1' }))).toEqual({ kind: 'tool', tool: 'select' });
    expect(commandFor(key({ key: '2', code: 'Digit2' }))).toEqual({ kind: 'tool', tool: 'hand' });
    expect(commandFor(key({ key: '!', code: 'Digit1', shiftKey: true, ctrlKey: true }))?.kind).not.toBe(
      'zoomToFit',
    );
    expect(commandFor(key({ key: '!', code: 'Digit1', shiftKey: true, altKey: true }))?.kind).not.toBe(
      'zoomToFit',
    );
  });
});
