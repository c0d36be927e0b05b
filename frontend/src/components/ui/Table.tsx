import type { Key, ReactNode } from 'react';
import styles from './Table.module.css';

export interface TableColumn<Row> {
  key: string;
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  align?: 'start' | 'end' | 'center';
}

interface TableProps<Row> {
  /** The table's accessible name; visually hidden when `hideCaption`. */
  caption: ReactNode;
  hideCaption?: boolean;
  columns: readonly TableColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => Key;
  /** Shown in one full-width cell when there are no rows. */
  empty?: ReactNode;
  testId?: string;
  /** Narrow screens (≤ 640 px) show each row as a card of "header: value" lines instead of scrolling sideways. */
  cards?: boolean;
  /** data-testid of each row (a function of the row). */
  rowTestId?: (row: Row) => string;
}

const alignClass = { start: '', end: styles.end, center: styles.center } as const;

/** A semantic data table (caption, column headers with scope) that scrolls sideways on narrow screens. */
export function Table<Row>({ caption, hideCaption, columns, rows, rowKey, empty, testId, cards, rowTestId }: TableProps<Row>) {
  return (
    <div className={cards ? `${styles.wrap} ${styles.cards}` : styles.wrap}>
      <table className={styles.table} data-testid={testId}>
        <caption className={hideCaption ? 'visually-hidden' : styles.caption}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} scope="col" className={`${styles.th} ${alignClass[c.align ?? 'start']}`}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && empty ? (
            <tr>
              <td className={`${styles.td} ${styles.empty}`} colSpan={columns.length}>
                {empty}
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={rowKey(row)} data-testid={rowTestId?.(row)}>
                {columns.map((c) => (
                  <td
                    key={c.key}
                    className={`${styles.td} ${alignClass[c.align ?? 'start']}`}
                    data-label={typeof c.header === 'string' ? c.header : undefined}
                  >
                    {c.cell(row)}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
