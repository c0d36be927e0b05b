/** The full-screen overlay while an export renders (§2 "Full-screen loading overlay during PNG export"). */
import { exportTexts, type ExportFormat } from './texts.ts';
import styles from './export.module.css';

export function ExportOverlay({ format }: { format: ExportFormat | null }) {
  if (!format) return null;
  return (
    <div className={styles.overlay} role="alert" aria-busy="true" data-testid="export-overlay">
      <div className={styles.spinner} aria-hidden="true" />
      <p>{exportTexts(format).overlay}</p>
    </div>
  );
}
