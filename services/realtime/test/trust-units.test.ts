/**
 * The pure rules behind issue 32 items 4, 5 and 9: which image sources an update may write (the
 * paths the end-to-end test does not reach: a reconnect's resend, an overwrite within one update),
 * one emoji per reaction, the presence stamp, signed image URLs.
 */
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { IMAGE_DATA_URL_MAX, addObject, getObjects, isSingleEmoji } from '@wb/board-model';
import { imageSourcesAllowed, readUpdateMeta } from '../src/domain/update-meta.ts';
import { stampPresence } from '../src/domain/presence.ts';
import { checkImageUrl, imageUrlExpiry, signedImageUrl } from '../src/domain/image-urls.ts';

const HASH = 'a'.repeat(64);
const image = (id: string, src: string) => ({ id, type: 'image' as const, x: 0, y: 0, width: 10, height: 10, src, zIndex: 0 });

/** Every update `fn` makes on `doc`, merged. */
function updateOf(doc: Y.Doc, fn: () => void): Uint8Array {
  const ups: Uint8Array[] = [];
  const on = (u: Uint8Array) => ups.push(u);
  doc.on('update', on);
  fn();
  doc.off('update', on);
  return Y.mergeUpdates(ups);
}

const allowed = (update: Uint8Array, copy: Y.Doc, board = 'b1') => imageSourcesAllowed(readUpdateMeta(update), board, copy.store);

describe('image sources an update writes', () => {
  it('judges new images and overwritten sources, in the copy or within the update', () => {
    const copy = new Y.Doc();
    const client = new Y.Doc();
    const ok = updateOf(client, () => addObject(client, image('i1', `/yjs/images/b1/${HASH}`)));
    expect(allowed(ok, copy)).toBe(true);
    Y.applyUpdate(copy, ok);
    // The field of an overwrite is named by the value it replaces, which the copy holds.
    const m = () => getObjects(client).get('i1') as Y.Map<unknown>;
    expect(allowed(updateOf(client, () => m().set('src', 'https://t.example/p.gif')), copy)).toBe(false);
    const fresh = new Y.Doc();
    Y.applyUpdate(fresh, Y.encodeStateAsUpdate(copy));
    // Created and overwritten in one update: the chain is followed within it.
    const other = new Y.Doc();
    const both = updateOf(other, () => {
      addObject(other, image('i2', `/yjs/images/b1/${HASH}`));
      (getObjects(other).get('i2') as Y.Map<unknown>).set('src', '//t.example/p.gif');
    });
    expect(allowed(both, fresh)).toBe(false);
    // Another board's image, SVG, an over-large data URL; numbers and text are not sources.
    for (const src of [`/yjs/images/b2/${HASH}`, 'data:image/svg+xml;base64,PHN2Zy8+', `data:image/png;base64,${'A'.repeat(IMAGE_DATA_URL_MAX)}`]) {
      const d = new Y.Doc();
      expect(allowed(updateOf(d, () => addObject(d, image('x', src))), new Y.Doc()), src.slice(0, 30)).toBe(false);
    }
    const small = new Y.Doc();
    expect(allowed(updateOf(small, () => addObject(small, image('s', 'data:image/png;base64,iVBORw0KGgo='))), new Y.Doc())).toBe(true);
    expect(allowed(updateOf(client, () => m().set('x', 5)), copy)).toBe(true);
  });

  it('follows an overwrite to a value accepted before it that is not in the copy yet (the store is slow)', () => {
    const copy = new Y.Doc();
    const client = new Y.Doc();
    const first = updateOf(client, () => addObject(client, image('i3', `/yjs/images/b1/${HASH}`)));
    const m = () => getObjects(client).get('i3') as Y.Map<unknown>;
    const move = updateOf(client, () => m().set('x', 7));
    const retarget = updateOf(client, () => m().set('src', 'https://t.example/p.gif'));
    // Without the accepted update the overwrites name a value nobody holds: no verdict, refused.
    expect(allowed(move, copy)).toBe(false);
    const judged = (u: Uint8Array, accepted: Uint8Array[]) => imageSourcesAllowed(readUpdateMeta(u), 'b1', copy.store, accepted);
    expect(judged(move, [first])).toBe(true);
    expect(judged(retarget, [first])).toBe(false);
    // A chain across two accepted updates: the move overwrote x, the next move overwrites the move.
    const again = updateOf(client, () => m().set('x', 8));
    expect(judged(again, [first, move])).toBe(true);
  });

  it('does not judge again what the copy holds (a reconnecting client resends an old board)', () => {
    const old = new Y.Doc();
    const legacy = updateOf(old, () => addObject(old, image('l1', 'https://legacy.example/x.png')));
    const copy = new Y.Doc();
    Y.applyUpdate(copy, legacy);
    // The resend holds the legacy item and a new, allowed edit.
    const resend = updateOf(old, () => (getObjects(old).get('l1') as Y.Map<unknown>).set('x', 3));
    expect(allowed(Y.mergeUpdates([legacy, resend]), copy)).toBe(true);
    expect(allowed(legacy, new Y.Doc())).toBe(false);
  });
});

describe('reactions, presence, signed URLs', () => {
  it('a reaction is one emoji grapheme', () => {
    for (const good of ['👍', '❤️', '👍🏽', '👨‍👩‍👧', '🇷🇺', '💯']) expect(isSingleEmoji(good), good).toBe(true);
    for (const bad of ['', '\u200d', '\u200d\u200d\u200d', '\ufe0f', '👍👍', 'a', '1', '\u0000', '\ud83d', '🇷']) expect(isSingleEmoji(bad), JSON.stringify(bad)).toBe(false);
  });

  it('the presence stamp replaces the identity and keeps the rest', () => {
    const who = { id: 'u1', name: 'Анна' };
    expect(stampPresence({ user: { id: 'owner', name: 'Владелец', color: '#000', extra: 1 }, cursor: { x: 1, y: 2 } }, who)).toEqual({
      user: { id: 'u1', name: 'Анна', color: expect.stringMatching(/^#[0-9A-F]{6}$/), extra: 1 },
      cursor: { x: 1, y: 2 },
    });
    expect(stampPresence(null, who)).toBeNull();
    expect(stampPresence('text', who)).toMatchObject({ user: { id: 'u1', name: 'Анна' } });
  });

  it('a signed URL names one image of one board until its expiry', () => {
    const key = Buffer.from('k'.repeat(32));
    const now = Date.UTC(2026, 10, 27, 12, 0, 30);
    const exp = imageUrlExpiry(now);
    expect(exp * 1000 - now).toBeGreaterThanOrEqual(10 * 60_000);
    expect(exp * 1000 - now).toBeLessThanOrEqual(15 * 60_000);
    expect(imageUrlExpiry(now + 60_000)).toBe(exp); // the same URL within a step: the browser cache holds
    const q = Object.fromEntries(new URL(signedImageUrl(key, 'b1', HASH, exp), 'http://x').searchParams);
    const sig = { exp: Number(q.exp), sig: q.sig };
    expect(checkImageUrl(key, 'b1', HASH, sig, now)).toBe('ok');
    expect(checkImageUrl(key, 'b2', HASH, sig, now)).toBe('invalid');
    expect(checkImageUrl(key, 'b1', 'b'.repeat(64), sig, now)).toBe('invalid');
    expect(checkImageUrl(Buffer.from('x'.repeat(32)), 'b1', HASH, sig, now)).toBe('invalid');
    expect(checkImageUrl(key, 'b1', HASH, { exp: sig.exp + 1, sig: sig.sig }, now)).toBe('invalid');
    expect(checkImageUrl(key, 'b1', HASH, {}, now)).toBe('invalid');
    expect(checkImageUrl(key, 'b1', HASH, sig, exp * 1000 + 1)).toBe('expired');
  });
});
