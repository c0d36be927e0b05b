import type { AdminStats } from '@wb/contracts';
import { formatRoubles } from './format.ts';
import { TEXTS } from './texts.ts';
import styles from './admin.module.css';

/** Spec §2: users, active subscriptions, boards, revenue in roubles ('—' until the stats arrive). */
export function StatsCounters({ stats }: { stats: AdminStats | undefined }) {
  const items: [string, string, string][] = [
    ['users', TEXTS.counters.users, stats ? stats.totalUsers.toLocaleString('ru-RU') : '—'],
    [
      'subscriptions',
      TEXTS.counters.subscriptions,
      stats ? stats.activeSubscriptions.toLocaleString('ru-RU') : '—',
    ],
    ['boards', TEXTS.counters.boards, stats ? stats.totalBoards.toLocaleString('ru-RU') : '—'],
    ['revenue', TEXTS.counters.revenue, stats ? formatRoubles(stats.revenue) : '—'],
  ];
  return <Counters items={items} testId="admin-stats" />;
}

/** A row of labelled numbers (also today's stats in the overview). */
export function Counters({
  items,
  testId,
}: {
  items: [key: string, label: string, value: string][];
  testId: string;
}) {
  return (
    <ul className={styles.counters} data-testid={testId}>
      {items.map(([key, label, value]) => (
        <li key={key} className={styles.counter} data-testid={`${testId}-${key}`}>
          <span className={styles.counterLabel}>{label}</span>
          <span className={styles.counterValue}>{value}</span>
        </li>
      ))}
    </ul>
  );
}
