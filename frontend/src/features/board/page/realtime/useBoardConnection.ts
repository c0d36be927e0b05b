/**
 * React side of BoardConnection: one connection per board and credentials, rebuilt after a reset.
 * Critical sync errors (§9) reset it after 1 s; 'Corrupted data' also asks the server to drop its
 * copy (force-save with clearData) and reloads the page after 2 s.
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import { CORRUPTED_RELOAD_DELAY_MS, CRITICAL_SYNC_ERRORS, SYNC_RESET_DELAY_MS } from '@wb/board-model';
import { tokenRefresher } from '../../../../api/baseApi.ts';
import { notify } from '../../../../lib/notify.ts';
import { SPEC } from '../texts.ts';
import { BoardConnection, type ConnectionState } from './boardConnection.ts';
import { criticalSyncError } from './reconnectPolicy.ts';

export interface ConnectionArgs {
  boardId: string;
  accessToken: string | null;
  shareToken: string | null;
  anonId: string | null;
  /** POST /yjs/force-save {boardId, clearData: true}; resolves true when the server accepted. */
  recoverOnServer: () => Promise<boolean>;
}

const INITIAL: ConnectionState = {
  phase: 'connecting',
  loaded: false,
  everConnected: false,
  deniedCode: null,
  attempts: 0,
};
const noopSubscribe = () => () => {};

export function useBoardConnection(args: ConnectionArgs): {
  connection: BoardConnection | null;
  state: ConnectionState;
} {
  const { boardId, accessToken, shareToken, anonId, recoverOnServer } = args;
  const [generation, setGeneration] = useState(0);
  const [connection, setConnection] = useState<BoardConnection | null>(null);

  useEffect(() => {
    const conn = new BoardConnection({
      boardId,
      accessToken,
      shareToken,
      anonId,
      refreshToken: () => tokenRefresher.refresh(),
      onReset: () => {
        void conn.clearLocalCopy().finally(() => setGeneration((g) => g + 1));
      },
    });
    setConnection(conn);

    let resetTimer: ReturnType<typeof setTimeout> | undefined;
    const onError = (message: string) => {
      const critical = criticalSyncError(message, CRITICAL_SYNC_ERRORS);
      if (!critical || resetTimer) return;
      resetTimer = setTimeout(() => {
        void conn.clearLocalCopy().finally(() => setGeneration((g) => g + 1));
      }, SYNC_RESET_DELAY_MS);
      if (critical === 'Corrupted data') {
        void recoverOnServer().then((ok) => {
          if (ok) notify.success(SPEC.recovered);
          else notify.error(SPEC.recoverError);
          setTimeout(() => window.location.reload(), CORRUPTED_RELOAD_DELAY_MS);
        });
      }
    };
    const onWindowError = (e: ErrorEvent) => onError(String(e.message ?? e.error));
    const onRejection = (e: PromiseRejectionEvent) => onError(String((e.reason as Error)?.message ?? e.reason));
    window.addEventListener('error', onWindowError);
    window.addEventListener('unhandledrejection', onRejection);
    return () => {
      clearTimeout(resetTimer);
      window.removeEventListener('error', onWindowError);
      window.removeEventListener('unhandledrejection', onRejection);
      conn.destroy();
      setConnection((c) => (c === conn ? null : c));
    };
    // recoverOnServer is deliberately left out: a new callback identity must not rebuild the connection.
  }, [boardId, accessToken, shareToken, anonId, generation]);

  const state = useSyncExternalStore(
    connection?.subscribe ?? noopSubscribe,
    connection?.getState ?? (() => INITIAL),
  );
  return { connection, state };
}
