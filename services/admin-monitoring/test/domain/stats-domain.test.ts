import { describe, expect, it } from 'vitest';
import {
  boardCreatedLine,
  boardDeletedLine,
  deferPerson,
  paymentLine,
  placePerson,
  personLabel,
  subscriptionLine,
  userDeletedLine,
  userRegisteredLine,
} from '../../src/domain/activity-texts.ts';
import { adminActionText, changedFields } from '../../src/domain/audit-texts.ts';
import { utcDay, utcDayStart } from '../../src/domain/day.ts';
import { formatMoney, revenueMinorOf, roublesOf } from '../../src/domain/money.ts';
import { isActiveStatus, subscriptionChange } from '../../src/domain/subscriptions.ts';

describe('day bucketing (UTC)', () => {
  it('puts an instant in its UTC day whatever its offset', () => {
    expect(utcDay('2026-11-27T23:59:59.999Z')).toBe('2026-11-27');
    expect(utcDay('2026-11-28T00:00:00.000Z')).toBe('2026-11-28');
    // 02:30 in Moscow is still the previous UTC day.
    expect(utcDay('2026-11-28T02:30:00+03:00')).toBe('2026-11-27');
    expect(utcDayStart(new Date('2026-11-28T17:45:12Z')).toISOString()).toBe('2026-11-28T00:00:00.000Z');
    expect(() => utcDay('not a date')).toThrow(RangeError);
  });
});

describe('money', () => {
  it('counts only RUB in revenue and formats amounts with their currency', () => {
    expect(revenueMinorOf(49_900, 'RUB')).toBe(49_900);
    expect(revenueMinorOf(49_900, 'rub')).toBe(49_900);
    expect(revenueMinorOf(1_000, 'USD')).toBe(0);
    expect(revenueMinorOf(1_000, 'EUR')).toBe(0);
    expect(roublesOf(49_950)).toBe(499.5);
    expect(roublesOf(0)).toBe(0);
    expect(formatMoney(49_900, 'RUB')).toBe('499 ₽');
    expect(formatMoney(199_050, 'RUB')).toBe('1 990,50 ₽');
    expect(formatMoney(123_456_789, 'RUB')).toBe('1 234 567,89 ₽');
    expect(formatMoney(950, 'USD')).toBe('9,50 $');
    expect(formatMoney(100, 'EUR')).toBe('1 €');
    expect(formatMoney(1_200, 'GBP')).toBe('12 GBP');
    expect(formatMoney(-5, 'RUB')).toBe('-0,05 ₽');
  });
});

describe('active subscriptions', () => {
  it("active and grace count, expired and a revoke do not; each subscription moves the counter at most once", () => {
    expect([isActiveStatus('active'), isActiveStatus('grace'), isActiveStatus('expired'), isActiveStatus(null)]).toEqual([true, true, false, false]);
    expect(subscriptionChange(false, 'active', 'payment')).toEqual({ delta: 1, isNew: true, kind: 'new' });
    expect(subscriptionChange(false, 'active', 'admin')).toEqual({ delta: 1, isNew: true, kind: 'new' });
    expect(subscriptionChange(true, 'active', 'payment')).toEqual({ delta: 0, isNew: false, kind: 'renewed' });
    expect(subscriptionChange(true, 'active', 'auto_renew')).toEqual({ delta: 0, isNew: false, kind: 'renewed' });
    expect(subscriptionChange(true, 'active', 'admin')).toEqual({ delta: 0, isNew: false, kind: 'changed' });
    expect(subscriptionChange(true, 'grace', 'time')).toEqual({ delta: 0, isNew: false, kind: 'grace' });
    expect(subscriptionChange(true, 'expired', 'time')).toEqual({ delta: -1, isNew: false, kind: 'expired' });
    expect(subscriptionChange(false, 'expired', 'time')).toEqual({ delta: 0, isNew: false, kind: 'expired' });
    expect(subscriptionChange(true, null, 'revoked')).toEqual({ delta: -1, isNew: false, kind: 'revoked' });
    expect(subscriptionChange(false, null, 'revoked')).toEqual({ delta: 0, isNew: false, kind: 'revoked' });
    expect(subscriptionChange(true, null, 'user_deleted')).toEqual({ delta: -1, isNew: false, kind: 'ended' });
    // Seen first in grace (it started before this service kept subscriptions): counted, not new today.
    expect(subscriptionChange(false, 'grace', 'time')).toEqual({ delta: 1, isNew: false, kind: 'grace' });
  });
});

describe('activity texts', () => {
  it('names people by what is known', () => {
    expect(personLabel({ name: 'Анна', email: 'a@example.com' }, 'x')).toBe('Анна (a@example.com)');
    expect(personLabel({ name: 'Анна', email: null }, 'x')).toBe('Анна');
    expect(personLabel(null, '0123456789abcdef')).toBe('пользователь 01234567');
  });

  it('gives each event its type and Russian line', () => {
    expect(userRegisteredLine('Анна', 'a@example.com')).toEqual({ type: 'user', text: 'Новый пользователь: Анна (a@example.com)' });
    expect(userDeletedLine('Анна (a@example.com)')).toEqual({ type: 'user', text: 'Пользователь удалён: Анна (a@example.com)' });
    expect(boardCreatedLine('План', 'Анна (a@example.com)')).toEqual({ type: 'boards', text: 'Создана доска «План» (Анна (a@example.com))' });
    expect(boardDeletedLine('План')).toEqual({ type: 'boards', text: 'Удалена доска «План»' });
    expect(boardDeletedLine(null)).toEqual({ type: 'boards', text: 'Удалена доска' });
    expect(subscriptionLine('new', 'Анна', 'Pro', 'active')).toEqual({ type: 'subscription', text: 'Новая подписка: Анна — Pro' });
    expect(subscriptionLine('renewed', 'Анна', 'Pro', 'active')?.text).toBe('Подписка продлена: Анна — Pro');
    expect(subscriptionLine('changed', 'Анна', 'Pro', 'grace')?.text).toBe('Подписка изменена: Анна — Pro (льготный период)');
    expect(subscriptionLine('grace', 'Анна', 'Pro', 'grace')?.text).toBe('Подписка в льготном периоде: Анна — Pro');
    expect(subscriptionLine('expired', 'Анна', 'Pro', 'expired')?.text).toBe('Подписка истекла: Анна — Pro');
    expect(subscriptionLine('revoked', 'Анна', 'Pro', null)?.text).toBe('Подписка отозвана: Анна');
    expect(subscriptionLine('ended', 'Анна', 'Pro', null)).toBeNull();
    expect(paymentLine(true, 49_900, 'RUB', 'Анна')).toEqual({ type: 'subscription', text: 'Оплата 499 ₽: Анна' });
    expect(paymentLine(false, 49_900, 'RUB', 'Анна')).toEqual({ type: 'subscription', text: 'Неудачный платёж 499 ₽: Анна' });
  });

  it('keeps the place of a person not known yet and fills it when read', () => {
    const line = deferPerson((who) => boardCreatedLine('План', who), 'пользователь 01234567');
    expect(line).toEqual({ type: 'boards', text: 'Создана доска «План» ()', personAt: 22 });
    expect(placePerson(line.text, line.personAt!, 'Анна (a@example.com)')).toBe('Создана доска «План» (Анна (a@example.com))');
    const sub = deferPerson((who) => subscriptionLine('new', who, 'Pro', 'active')!, 'x');
    expect(placePerson(sub.text, sub.personAt!, 'Анна')).toBe('Новая подписка: Анна — Pro');
    // A title holding the marker itself: written at once with the fallback.
    expect(deferPerson((who) => boardCreatedLine('\uE000', who), 'пользователь 01234567')).toEqual({
      type: 'boards',
      text: 'Создана доска «\uE000» (пользователь 01234567)',
      personAt: null,
    });
  });

  it("writes an admin's action with who, what and the changed fields", () => {
    const base = { actorId: '00000000-0000-4000-8000-000000000001', actorName: 'Админ', at: '2026-11-28T00:00:00Z' };
    expect(
      adminActionText({
        ...base,
        action: 'subscription.extended',
        target: { type: 'subscription', id: 's', label: 'Пётр (Pro)' },
        before: { status: 'grace', expires_at: 'a', plan_name: 'Pro' },
        after: { status: 'active', expires_at: 'b', plan_name: 'Pro' },
      }),
    ).toBe('Администратор Админ: продлена подписка Пётр (Pro) (изменено: expires_at, status)');
    expect(adminActionText({ ...base, action: 'plan.created', target: { type: 'plan', id: 'p', label: 'Команда' }, before: null, after: { name: 'Команда' } })).toBe(
      'Администратор Админ: создан тариф «Команда»',
    );
    expect(adminActionText({ ...base, action: 'system.update_started', target: { type: 'system', id: null, label: 'система' }, before: null, after: null })).toBe(
      'Администратор Админ: запущено обновление системы',
    );
    expect(changedFields({ a: { x: 1 }, b: 1 }, { a: { x: 1 }, b: 2, c: 3 })).toEqual(['b', 'c']);
  });
});

describe('shared reads', () => {
  it('shares one read among concurrent callers, reuses it for keepMs, refreshes behind a recent answer, waits for an old one', async () => {
    const { sharedReads } = await import('../../src/store/shared-read.ts');
    let clock = 0;
    const shared = sharedReads<number>({ keepMs: 250, now: () => clock });
    let reads = 0;
    let release!: () => void;
    let gate = new Promise<void>((r) => (release = r));
    const read = async () => {
      const n = ++reads;
      await gate;
      return n;
    };
    const together = [shared('a', read), shared('a', read), shared('b', read)];
    release();
    expect(await Promise.all(together)).toEqual([1, 1, 2]);
    expect(reads).toBe(2);
    clock = 249;
    expect(await shared('a', read)).toBe(1);
    expect(reads).toBe(2);
    // Between keepMs and twice that: the last answer at once, a new read behind it (shared).
    gate = new Promise<void>((r) => (release = r));
    clock = 300;
    expect(await shared('a', read)).toBe(1);
    expect(await shared('a', read)).toBe(1);
    expect(reads).toBe(3);
    release();
    await gate;
    await new Promise((r) => setImmediate(r));
    expect(await shared('a', read)).toBe(3);
    // Read at 300, so at 800 it is too old to answer: the caller waits for a new read.
    clock = 800;
    expect(await shared('a', read)).toBe(4);
    // A failed read is not kept, and the next caller reads again.
    clock = 2000;
    await expect(shared('a', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await shared('a', read)).toBe(5);
  });
});
