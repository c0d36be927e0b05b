import { TrashIcon } from 'lucide-react';
import { useState } from 'react';
import {
  KANBAN_COLORS,
  KANBAN_MAX_COLUMNS,
  KANBAN_MIN_COLUMNS,
  defaultKanbanSettings,
  kanbanTemplate,
  validateKanbanSettings,
  type CanvasObject,
} from '@wb/board-model';
import { Button, IconButton } from '../../../../components/ui/index.ts';
import { TEMPLATE_LABELS } from '../texts.ts';
import styles from './templates.module.css';

/** §5 Kanban: 2–6 columns, names 1–20 characters (create is disabled otherwise), 18 colours. */
export function KanbanForm({ onCreate }: { onCreate: (objects: CanvasObject[]) => void }) {
  const [settings, setSettings] = useState(defaultKanbanSettings);
  const errors = validateKanbanSettings(settings);
  const setColumn = (i: number, patch: { name?: string; color?: string }) =>
    setSettings((s) => ({
      columns: s.columns.map((c, j) => (j === i && patch.name !== undefined ? patch.name : c)),
      colors: s.columns.map((_, j) => (j === i && patch.color ? patch.color : (s.colors[j] ?? KANBAN_COLORS[j]))),
    }));
  return (
    <div className={styles.form} data-testid="kanban-form">
      {settings.columns.map((name, i) => (
        <div key={i} className={styles.column}>
          <input
            className={styles.input}
            value={name}
            aria-label={TEMPLATE_LABELS.column(i + 1)}
            data-testid={`kanban-name-${i}`}
            onChange={(e) => setColumn(i, { name: e.target.value })}
          />
          <div className={styles.swatches} role="radiogroup" aria-label={TEMPLATE_LABELS.column(i + 1)}>
            {KANBAN_COLORS.map((c) => (
              <Button
                key={c}
                variant="plain"
                role="radio"
                aria-checked={(settings.colors[i] ?? KANBAN_COLORS[i]) === c}
                aria-label={TEMPLATE_LABELS.columnColor(i + 1, c)}
                className={styles.swatch}
                style={{ background: c }}
                onClick={() => setColumn(i, { color: c })}
              />
            ))}
          </div>
          {settings.columns.length > KANBAN_MIN_COLUMNS ? (
            <IconButton
              label={TEMPLATE_LABELS.deleteColumn(i + 1)}
              data-testid={`kanban-delete-${i}`}
              onClick={() =>
                setSettings((s) => ({
                  columns: s.columns.filter((_, j) => j !== i),
                  colors: s.colors.filter((_, j) => j !== i),
                }))
              }
            >
              <TrashIcon size={16} />
            </IconButton>
          ) : null}
        </div>
      ))}
      {errors.length > 0 ? (
        <ul className={styles.errors} data-testid="kanban-errors">
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      ) : null}
      <div className={styles.actions}>
        <Button
          size="sm"
          disabled={settings.columns.length >= KANBAN_MAX_COLUMNS}
          data-testid="kanban-add"
          onClick={() =>
            setSettings((s) => ({
              columns: [...s.columns, TEMPLATE_LABELS.column(s.columns.length + 1)],
              colors: [...s.colors, KANBAN_COLORS[s.columns.length % KANBAN_COLORS.length]],
            }))
          }
        >
          {TEMPLATE_LABELS.addColumn}
        </Button>
        <Button
          size="sm"
          variant="primary"
          disabled={errors.length > 0}
          data-testid="kanban-create"
          onClick={() => onCreate(kanbanTemplate(settings, { x: 0, y: 0 }))}
        >
          {TEMPLATE_LABELS.create}
        </Button>
      </div>
    </div>
  );
}
