import { useEffect } from 'react';
import { logFailure } from './alerts.ts';
import { useGetActivityQuery } from './adminApi.ts';
import { formatRoubles, formatTime } from './format.ts';
import { SPEC_TEXTS } from './specTexts.ts';
import { Counters } from './StatsCounters.tsx';
import { TEXTS } from './texts.ts';
import styles from './admin.module.css';

/** Spec §2 Обзор: today's four numbers and today's activity, coloured by type. */
export function OverviewTab() {
  const { data, error } = useGetActivityQuery(undefined, { refetchOnMountOrArgChange: true });
  useEffect(() => {
    if (error) logFailure('activity', error);
  }, [error]);
  const t = data?.todayStats;
  const dash = (v: number | undefined, f: (n: number) => string = (n) => n.toLocaleString('ru-RU')) =>
    v === undefined ? '—' : f(v);
  return (
    <section aria-labelledby="admin-today-title">
      <h2 id="admin-today-title" className={styles.sectionTitle}>
        {TEXTS.today.title}
      </h2>
      <Counters
        testId="admin-today"
        items={[
          ['users', TEXTS.today.newUsers, dash(t?.newUsers)],
          ['subscriptions', TEXTS.today.newSubscriptions, dash(t?.newSubscriptions)],
          ['boards', TEXTS.today.newBoards, dash(t?.newBoards)],
          ['payments', TEXTS.today.paymentsAmount, dash(t?.paymentsAmount, formatRoubles)],
        ]}
      />
      <h2 className={styles.sectionTitle}>{TEXTS.today.activityTitle}</h2>
      {data && data.activity.length > 0 ? (
        <ul className={styles.activity} data-testid="admin-activity">
          {data.activity.map((a, i) => (
            <li
              key={`${a.time}-${i}`}
              className={`${styles.activityItem} ${styles[`type_${a.type}`]}`}
              data-type={a.type}
            >
              <time dateTime={a.time}>{formatTime(a.time)}</time>
              <span className="visually-hidden">{TEXTS.today.types[a.type]}:</span>
              <span>{a.text}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className={styles.empty} data-testid="admin-activity-empty">
          {SPEC_TEXTS.activityEmpty}
        </p>
      )}
    </section>
  );
}
