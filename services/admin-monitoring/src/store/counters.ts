import type { AdminStats, TodayStats } from '@wb/contracts';
import type { Queryable } from '@wb/db';
import { roublesOf } from '../domain/money.ts';

export type CounterName = 'users' | 'active_subscriptions' | 'boards' | 'revenue_minor';
export type DailyName = 'new_users' | 'new_subscriptions' | 'new_boards' | 'payments_minor';

// Every handler bumps `counters` before `daily_counters`, both last (after its projection row and
// activity line): two replicas take row locks in one order and never deadlock, and the hot counter
// rows stay locked only for the bump and the commit.

export async function bump(db: Queryable, name: CounterName, delta: number): Promise<void> {
  if (delta === 0) return;
  await db.query('UPDATE counters SET value = value + $2 WHERE name = $1', [name, delta]);
}

export async function bumpDaily(db: Queryable, day: string, name: DailyName, delta: number): Promise<void> {
  if (delta === 0) return;
  await db.query(
    `INSERT INTO daily_counters (day, name, value) VALUES ($1, $2, $3)
     ON CONFLICT (day, name) DO UPDATE SET value = daily_counters.value + EXCLUDED.value`,
    [day, name, delta],
  );
}

export async function readStats(db: Queryable): Promise<AdminStats> {
  const { rows } = await db.query<{ name: CounterName; value: number }>('SELECT name, value FROM counters');
  const v = Object.fromEntries(rows.map((r) => [r.name, r.value])) as Partial<Record<CounterName, number>>;
  return {
    totalUsers: v.users ?? 0,
    activeSubscriptions: v.active_subscriptions ?? 0,
    totalBoards: v.boards ?? 0,
    revenue: roublesOf(v.revenue_minor ?? 0),
  };
}

export async function readDay(db: Queryable, day: string): Promise<TodayStats> {
  const { rows } = await db.query<{ name: DailyName; value: number }>('SELECT name, value FROM daily_counters WHERE day = $1', [day]);
  const v = Object.fromEntries(rows.map((r) => [r.name, r.value])) as Partial<Record<DailyName, number>>;
  return {
    newUsers: v.new_users ?? 0,
    newSubscriptions: v.new_subscriptions ?? 0,
    newBoards: v.new_boards ?? 0,
    paymentsAmount: roublesOf(v.payments_minor ?? 0),
  };
}
