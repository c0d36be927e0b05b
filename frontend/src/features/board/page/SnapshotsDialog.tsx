/** Snapshot viewer (owner only, §2/§3/§7): list with version, date, size in MB, status; stats; delete empty ones. */
import { useEffect } from 'react';
import { Button, Dialog } from '../../../components/ui/index.ts';
import { getErrorMessage } from '../../../api/errors.ts';
import { notify } from '../../../lib/notify.ts';
import { useDeleteEmptySnapshotsMutation, useLazyGetSnapshotsQuery } from './boardPageApi.ts';
import { OWN, SPEC, toMegabytes } from './texts.ts';
import styles from './boardPage.module.css';

export function SnapshotsDialog({ boardId, onClose }: { boardId: string; onClose: () => void }) {
  const [load, { data, isError, isFetching }] = useLazyGetSnapshotsQuery();
  const [deleteEmpty, deleting] = useDeleteEmptySnapshotsMutation();

  useEffect(() => {
    void load(boardId);
  }, [boardId, load]);
  useEffect(() => {
    if (isError) notify.error(SPEC.snapshotsError);
  }, [isError]);

  const clean = async () => {
    try {
      const res = await deleteEmpty(boardId).unwrap();
      notify.success(res.message);
      void load(boardId);
    } catch (err) {
      notify.error(getErrorMessage(err, SPEC.snapshotsCleanError));
    }
  };

  return (
    <Dialog title={OWN.snapshots} onClose={onClose} size="lg" testId="snapshots-dialog">
      {data ? (
        <>
          <p className={styles.muted} data-testid="snapshot-stats">
            {OWN.snapshotStats(data.stats)}
          </p>
          {data.snapshots.length === 0 ? (
            <p>{OWN.noSnapshots}</p>
          ) : (
            <div className={styles.tableWrap}>
              <table className={styles.table}>
                <thead>
                  <tr>
                    <th>{OWN.snapshotVersion}</th>
                    <th>{OWN.snapshotDate}</th>
                    <th>{OWN.snapshotSize}</th>
                    <th>{OWN.snapshotStatus}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.snapshots.map((s) => (
                    <tr key={s.id} data-testid="snapshot-row" data-status={s.status}>
                      <td>{s.version}</td>
                      <td>{new Date(s.created_at).toLocaleString('ru-RU')}</td>
                      <td>{toMegabytes(s.blob_size)}</td>
                      <td>{OWN.snapshotStatuses[s.status]}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <div className={styles.dialogActions}>
            <Button
              variant="secondary"
              onClick={clean}
              disabled={deleting.isLoading || isFetching || data.stats.empty_count === 0}
              data-testid="delete-empty-snapshots"
            >
              {OWN.deleteEmpty}
            </Button>
          </div>
        </>
      ) : isError ? (
        <p>{SPEC.snapshotsError}</p>
      ) : (
        <p className={styles.muted}>{OWN.loadingSnapshots}</p>
      )}
    </Dialog>
  );
}
