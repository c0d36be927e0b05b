/** Footer (§2): object count, cursor coordinates, canvas limit when bounded, sync status. */
import type { CanvasLimits } from '@wb/contracts';
import type { ConnectionPhase } from './realtime/boardConnection.ts';
import { Button } from '../../../components/ui/Button.tsx';
import { OWN, SPEC } from './texts.ts';
import styles from './boardPage.module.css';

/** The truth first: a link-opened board says 'Общий доступ' only while it is actually in sync. */
export function syncStatusText(phase: ConnectionPhase, viaLink: boolean): string {
  if (phase === 'offline') return OWN.offline;
  if (phase === 'reconnecting' || phase === 'connecting') return OWN.reconnecting;
  return viaLink ? SPEC.sharedAccess : SPEC.synced;
}

export function BoardFooter(props: {
  objectCount: number;
  cursor: { x: number; y: number } | null;
  limits: CanvasLimits;
  phase: ConnectionPhase;
  viaLink: boolean;
  onRetry(): void;
}) {
  const { objectCount, cursor, limits, phase, viaLink, onRetry } = props;
  const bounded = !limits.unlimited && limits.max_width !== null && limits.max_height !== null;
  return (
    <footer className={styles.footer} data-testid="board-footer">
      <span data-testid="footer-object-count">
        {OWN.objects}: {objectCount}
      </span>
      <span data-testid="footer-cursor">{cursor ? `X: ${Math.round(cursor.x)}, Y: ${Math.round(cursor.y)}` : 'X: –, Y: –'}</span>
      {bounded ? (
        <span data-testid="footer-limit">
          {OWN.limit}: {limits.max_width}×{limits.max_height}
        </span>
      ) : null}
      <span className={styles.spacer} />
      <span className={`${styles.sync} ${styles[`sync_${phase}`] ?? ''}`} data-testid="sync-status" data-phase={phase}>
        <span className={styles.syncDot} aria-hidden="true" />
        {syncStatusText(phase, viaLink)}
        {phase === 'offline' ? (
          <Button variant="plain" className={styles.retry} onClick={onRetry} data-testid="sync-retry">
            {OWN.retry}
          </Button>
        ) : null}
      </span>
    </footer>
  );
}
