import { Button, Dialog } from '../../components/ui/index.ts';
import { SPEC_TEXTS } from './specTexts.ts';
import { TEXTS } from './texts.ts';
import type { UpdateView } from './updatePolicy.ts';
import styles from './system.module.css';
import a from './admin.module.css';

const T = TEXTS.update;

/** Spec §2: the blocking update-progress overlay ('Пожалуйста, не закрывайте страницу'), §4's states. */
export function UpdateOverlay({ view, onDismiss }: { view: UpdateView; onDismiss: () => void }) {
  if (view.phase === 'idle') return null;
  const over = view.phase === 'timedOut' || view.phase === 'failed';
  const progress = view.phase === 'running' || view.phase === 'done' ? view.progress : null;
  const step = view.phase === 'running' || view.phase === 'done' ? view.step || T.starting : null;
  return (
    <Dialog
      title={T.title}
      size="sm"
      alert
      closable={over}
      onClose={over ? onDismiss : () => {}}
      testId="update-overlay"
      footer={
        over ? (
          <Button
            variant="primary"
            size="sm"
            onClick={() => window.location.reload()}
            data-testid="update-reload"
          >
            {T.reload}
          </Button>
        ) : undefined
      }
    >
      <div className="form" aria-live="polite">
        <p>
          <strong>{SPEC_TEXTS.updateOverlay}</strong>
        </p>
        {step !== null ? (
          <p className={styles.gaugeHead}>
            <span data-testid="update-step">{step}</span>
            {progress !== null ? <span className={styles.gaugeValue}>{progress}%</span> : null}
          </p>
        ) : null}
        {progress !== null ? (
          <div
            className={styles.bar}
            role="progressbar"
            aria-label={T.title}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={progress}
            data-testid="update-progress"
          >
            <div className={`${styles.fill} ${styles.fill_green}`} style={{ width: `${progress}%` }} />
          </div>
        ) : null}
        {view.phase === 'running' && view.waiting ? (
          <p className={a.muted} data-testid="update-waiting">
            {T.waiting}
          </p>
        ) : null}
        {view.phase === 'done' ? <p data-testid="update-done">{T.done}</p> : null}
        {view.phase === 'timedOut' ? (
          <p className={a.red} role="alert" data-testid="update-timeout">
            {T.timedOut}
          </p>
        ) : null}
        {view.phase === 'failed' ? (
          <p role="alert" data-testid="update-failed">
            {T.failed}: {view.message}
          </p>
        ) : null}
      </div>
    </Dialog>
  );
}
