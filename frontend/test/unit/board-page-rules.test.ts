/** Pure rules of the board page: reconnect policy, load errors, presence, favourites, status, texts. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CRITICAL_SYNC_ERRORS, DEFAULT_EMOJIS, PARTICIPANT_COLORS } from '@wb/board-model';
import { syncStatusText } from '../../src/features/board/page/BoardFooter.tsx';
import { classifyLoadError, loginPath } from '../../src/features/board/page/loadError.ts';
import {
  LOADING_PRESENCE_NAME,
  colorFor,
  participantsLabel,
  participantsOf,
  remoteCursors,
  remoteSelections,
} from '../../src/features/board/page/presence.ts';
import { criticalSyncError, decideOnClose } from '../../src/features/board/page/realtime/reconnectPolicy.ts';
import { quickReactions, toggleFavorite } from '../../src/features/board/page/reactions/useFavoriteEmojis.ts';
import { groupReactions } from '../../src/features/board/page/reactions/ReactionBar.tsx';
import { OWN, SPEC, linkText, savedText, sharingText, toMegabytes } from '../../src/features/board/page/texts.ts';

describe('reconnect policy (§9)', () => {
  it('backs off 1000 ms × 1.5ⁿ for five attempts, then gives up', () => {
    const delays = [0, 1, 2, 3, 4].map((n) => decideOnClose(1006, n));
    expect(delays).toEqual([1000, 1500, 2250, 3375, 5062.5].map((delayMs) => ({ action: 'retry', delayMs })));
    expect(decideOnClose(1006, 5)).toEqual({ action: 'offline' });
    expect(decideOnClose(4500, 5)).toEqual({ action: 'offline' });
  });

  it('denies on 4403, 4404 and 4410, refreshes on 4401, resets on 4400', () => {
    for (const code of [4403, 4404, 4410]) expect(decideOnClose(code, 0)).toEqual({ action: 'denied', code });
    expect(decideOnClose(4401, 0)).toEqual({ action: 'refresh-token' });
    expect(decideOnClose(4401, 5)).toEqual({ action: 'offline' });
    expect(decideOnClose(4400, 0)).toEqual({ action: 'reset' });
  });

  it('reconnects at once after the server reset the document (4205)', () => {
    expect(decideOnClose(4205, 3)).toEqual({ action: 'retry', delayMs: 0 });
  });

  it('recognises the critical sync errors', () => {
    expect(criticalSyncError('Error: Unexpected end of array at readVarUint', CRITICAL_SYNC_ERRORS)).toBe(
      'Unexpected end of array',
    );
    expect(criticalSyncError('Corrupted data in update', CRITICAL_SYNC_ERRORS)).toBe('Corrupted data');
    expect(criticalSyncError('Network error', CRITICAL_SYNC_ERRORS)).toBeNull();
  });
});

describe('board load errors (§2, §4)', () => {
  const err = (status: number | string, code?: string, error?: string) => ({ status, data: code ? { code, error } : undefined });

  it('TOKEN_MISSING with a share token goes to /login with the way back', () => {
    expect(classifyLoadError(err(401, 'TOKEN_MISSING', 'x'), { shareToken: 't', here: '/board/1?token=t' })).toEqual({
      kind: 'login',
      returnTo: '/board/1?token=t',
    });
    expect(loginPath('/board/1?token=t')).toBe('/login?redirect=%2Fboard%2F1%3Ftoken%3Dt');
  });

  it('anything else is denied with the server text or a clear fallback', () => {
    expect(classifyLoadError(err(401, 'TOKEN_MISSING', 'Требуется авторизация'), { shareToken: null, here: '/b' })).toEqual({
      kind: 'denied',
      message: 'Требуется авторизация',
    });
    expect(
      classifyLoadError(err(403, 'INVALID_SHARE_TOKEN', 'Недействительная ссылка доступа'), { shareToken: 't', here: '/b' }),
    ).toEqual({ kind: 'denied', message: 'Недействительная ссылка доступа' });
    const timeout = classifyLoadError({ status: 'TIMEOUT_ERROR', error: 'AbortError' }, { shareToken: 't', here: '/b' });
    expect(timeout.kind).toBe('denied');
    expect(timeout.kind === 'denied' && timeout.message.length).toBeGreaterThan(0);
  });
});

describe('presence', () => {
  const state = (id: string, name: string, extra: object = {}) => ({
    user: { id, name, color: colorFor(id) },
    cursor: null,
    selection: [],
    ...extra,
  });

  it('colours come from the 10-colour palette, the same for one user everywhere', () => {
    expect(PARTICIPANT_COLORS).toContain(colorFor('user-1'));
    expect(colorFor('user-1')).toBe(colorFor('user-1'));
  });

  it('one row per user, self first, junk states ignored', () => {
    const states = new Map<number, unknown>([
      [1, state('a', 'Анна')],
      [2, state('b', 'Борис')],
      [3, state('b', 'Борис')],
      [4, { nonsense: true }],
    ]);
    const rows = participantsOf(states, 2);
    expect(rows.map((r) => [r.name, r.self, r.clientIds.length])).toEqual([
      ['Борис', true, 2],
      ['Анна', false, 1],
    ]);
  });

  it("the temporary 'Загрузка...' presence gives way to the real name", () => {
    expect(LOADING_PRESENCE_NAME).toBe(SPEC.loadingPresence);
    const states = new Map<number, unknown>([
      [1, state('a', LOADING_PRESENCE_NAME)],
      [2, state('a', 'Анна')],
    ]);
    expect(participantsOf(states, 9).map((r) => r.name)).toEqual(['Анна']);
  });

  it('remote cursors and selections leave out our own', () => {
    const states = new Map<number, unknown>([
      [1, state('a', 'Анна', { cursor: { x: 5, y: 6 }, selection: ['o1'] })],
      [2, state('b', 'Борис', { cursor: { x: 1, y: 2 }, selection: ['o2'] })],
    ]);
    expect(remoteCursors(states, 1)).toEqual([{ clientId: 2, name: 'Борис', color: colorFor('b'), x: 1, y: 2 }]);
    expect([...remoteSelections(states, 1)]).toEqual([['o2', colorFor('b')]]);
  });

  it("uses the plural of 'участник' of §9", () => {
    expect([1, 2, 4, 5, 11].map(participantsLabel)).toEqual([
      '1 участник',
      '2 участника',
      '4 участника',
      '5 участников',
      '11 участников',
    ]);
  });
});

describe('reactions and favourites (§9)', () => {
  it('quick reactions are the first six favourites, the defaults when there are none', () => {
    expect(quickReactions([])).toEqual([...DEFAULT_EMOJIS]);
    expect(quickReactions(['🎉', '🚀', '✅', '❌', '⭐', '💡', '👀'])).toEqual(['🎉', '🚀', '✅', '❌', '⭐', '💡']);
  });

  it('toggling a favourite adds at the end or removes', () => {
    expect(toggleFavorite(['👍'], '🔥')).toEqual(['👍', '🔥']);
    expect(toggleFavorite(['👍', '🔥'], '👍')).toEqual(['🔥']);
  });

  it('groups reactions by emoji with counts and marks our own', () => {
    const groups = groupReactions(
      [
        { emoji: '👍', userId: 'a', userName: 'Анна' },
        { emoji: '👍', userId: 'b', userName: 'Борис' },
        { emoji: '🔥', userId: 'b', userName: 'Борис' },
      ],
      'a',
    );
    expect(groups.map((g) => [g.emoji, g.count, g.mine])).toEqual([
      ['👍', 2, true],
      ['🔥', 1, false],
    ]);
  });
});

describe('status and texts', () => {
  it('the footer tells the truth about the connection', () => {
    expect(syncStatusText('connected', false)).toBe('Синхронизировано');
    expect(syncStatusText('connected', true)).toBe('Общий доступ');
    expect(syncStatusText('offline', true)).not.toBe('Общий доступ');
    expect(syncStatusText('reconnecting', false)).not.toBe('Синхронизировано');
  });

  it('snapshot sizes are shown in MB', () => {
    expect(toMegabytes(1024 * 1024)).toBe('1.000');
    expect(toMegabytes(524288)).toBe('0.500');
    // The stats' maximum in the same unit, not raw bytes (issue 35 item 9).
    expect(OWN.snapshotStats({ total: 3, content_count: 2, empty_count: 1, max_size: 2 * 1024 * 1024 })).toBe('Всего: 3, с содержимым: 2, пустых: 1, максимум: 2.000 МБ');
  });

  it('builds the parametrised toasts from the spec patterns', () => {
    expect(savedText(3)).toBe('Сохранено 3 объектов!');
    expect(linkText('Редактирование', 'создана')).toBe('Ссылка Редактирование создана');
    expect(sharingText(true)).toBe('Общий доступ включен');
    expect(sharingText(false)).toBe('Общий доступ выключен');
  });

  it('every SPEC text occurs in the spec verbatim', () => {
    const here = path.dirname(fileURLToPath(import.meta.url));
    const spec = readFileSync(path.resolve(here, '../../../../shared/spec/board-page.md'), 'utf8');
    for (const [key, text] of Object.entries(SPEC)) expect(spec.includes(`'${text}'`), key).toBe(true);
  });
});
