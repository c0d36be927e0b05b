import { useState } from 'react';
import { MONTH_NAMES, calendarTemplate, calendarYears, type CanvasObject } from '@wb/board-model';
import { Button } from '../../../../components/ui/index.ts';
import { TEMPLATE_LABELS } from '../texts.ts';
import styles from './templates.module.css';

/** §9 calendar: month and year (ten years from two before the current one), Monday first, today highlighted. */
export function CalendarForm({ onCreate }: { onCreate: (objects: CanvasObject[]) => void }) {
  const now = new Date();
  const [month, setMonth] = useState(now.getMonth());
  const [year, setYear] = useState(now.getFullYear());
  return (
    <div className={styles.form} data-testid="calendar-form">
      <label className={styles.field}>
        {TEMPLATE_LABELS.month}
        <select className={styles.input} value={month} data-testid="calendar-month" onChange={(e) => setMonth(Number(e.target.value))}>
          {MONTH_NAMES.map((m, i) => (
            <option key={m} value={i}>
              {m}
            </option>
          ))}
        </select>
      </label>
      <label className={styles.field}>
        {TEMPLATE_LABELS.year}
        <select className={styles.input} value={year} data-testid="calendar-year" onChange={(e) => setYear(Number(e.target.value))}>
          {calendarYears(now.getFullYear()).map((y) => (
            <option key={y} value={y}>
              {y}
            </option>
          ))}
        </select>
      </label>
      <div className={styles.actions}>
        <Button size="sm" variant="primary" data-testid="calendar-create" onClick={() => onCreate(calendarTemplate({ month, year }, new Date()))}>
          {TEMPLATE_LABELS.create}
        </Button>
      </div>
    </div>
  );
}
