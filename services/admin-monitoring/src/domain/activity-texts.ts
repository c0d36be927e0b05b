import type { ActivityType } from '@wb/contracts';
import { formatMoney } from './money.ts';
import type { SubscriptionChangeKind, SubscriptionStatus } from './subscriptions.ts';

/**
 * The overview's activity lines (spec §2 Обзор: time and text, coloured by type). The spec gives
 * no texts; these are ours, listed in docs/decisions.md "Admin activity texts".
 */
export interface ActivityLine {
  type: ActivityType;
  text: string;
}

/** A person as the projection knows them; either may be missing (never seen, or deleted). */
export interface Person {
  name?: string | null;
  email?: string | null;
}

/** 'Имя (почта)', or what is known; an unknown person is 'пользователь' and the id's first 8 characters. */
export function personLabel(p: Person | null | undefined, id: string): string {
  if (p?.name && p.email) return `${p.name} (${p.email})`;
  if (p?.name || p?.email) return (p.name || p.email)!;
  return `пользователь ${id.slice(0, 8)}`;
}

export const userRegisteredLine = (name: string, email: string): ActivityLine => ({
  type: 'user',
  text: `Новый пользователь: ${name} (${email})`,
});

export const userDeletedLine = (who: string): ActivityLine => ({ type: 'user', text: `Пользователь удалён: ${who}` });

export const boardCreatedLine = (title: string, owner: string): ActivityLine => ({
  type: 'boards',
  text: `Создана доска «${title}» (${owner})`,
});

export const boardDeletedLine = (title: string | null): ActivityLine => ({
  type: 'boards',
  text: title === null ? 'Удалена доска' : `Удалена доска «${title}»`,
});

const STATUS_RU: Record<SubscriptionStatus, string> = { active: 'активна', grace: 'льготный период', expired: 'истекла' };

/** null: nothing to show (a deleted user's subscription ending is already the deletion's line). */
export function subscriptionLine(
  kind: SubscriptionChangeKind,
  who: string,
  planName: string | null,
  status: SubscriptionStatus | null,
): ActivityLine | null {
  const plan = planName ? ` — ${planName}` : '';
  const texts: Record<SubscriptionChangeKind, string | null> = {
    new: `Новая подписка: ${who}${plan}`,
    renewed: `Подписка продлена: ${who}${plan}`,
    changed: `Подписка изменена: ${who}${plan}${status ? ` (${STATUS_RU[status]})` : ''}`,
    grace: `Подписка в льготном периоде: ${who}${plan}`,
    expired: `Подписка истекла: ${who}${plan}`,
    revoked: `Подписка отозвана: ${who}`,
    ended: null,
  };
  const text = texts[kind];
  return text === null ? null : { type: 'subscription', text };
}

export const paymentLine = (ok: boolean, amountMinor: number, currency: string, who: string): ActivityLine => ({
  type: 'subscription',
  text: `${ok ? 'Оплата' : 'Неудачный платёж'} ${formatMoney(amountMinor, currency)}: ${who}`,
});

/**
 * A line whose person is not known yet: the text without the person and the index where their
 * label goes (filled when read, see placePerson). The marker is a private-use character; a line
 * whose own words hold it (a title typed with it) is written with the fallback label instead.
 */
const MARK = '\uE000';
export interface DeferredLine extends ActivityLine {
  personAt: number | null;
}

export function deferPerson(build: (who: string) => ActivityLine, fallback: string): DeferredLine {
  const line = build(MARK);
  const at = line.text.indexOf(MARK);
  if (at < 0 || line.text.indexOf(MARK, at + 1) >= 0) return { ...build(fallback), personAt: null };
  return { type: line.type, text: line.text.slice(0, at) + line.text.slice(at + 1), personAt: at };
}

/** The stored text with the person's label in its place (the projection's, or the fallback). */
export const placePerson = (text: string, at: number, label: string): string => text.slice(0, at) + label + text.slice(at);
