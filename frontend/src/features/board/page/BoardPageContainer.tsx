/**
 * /board/:id (§2, §4): fetch the board and connect in parallel, show the loading stages in turn,
 * send a link visitor who needs a login to /login, show 'Доступ запрещен' for any other failure.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Navigate, useLocation, useParams, useSearchParams } from 'react-router-dom';
import { ERRORS } from '@wb/contracts';
import { useAppSelector } from '../../../app/store.ts';
import { selectUser } from '../../auth/authSlice.ts';
import { localTokenStore } from '../../auth/tokenStorage.ts';
import { useDocumentTitle } from '../../../lib/useDocumentTitle.ts';
import { useBoardFonts } from '../fonts.ts';
import { BoardWorkspace } from './BoardWorkspace.tsx';
import { AccessDenied, LoadingStage } from './LoadStates.tsx';
import { useForceSaveMutation, useGetBoardPageQuery, useGetCameraQuery } from './boardPageApi.ts';
import { classifyLoadError, loginPath } from './loadError.ts';
import { useOfflineAnswer } from './offlineAnswer.ts';
import { markOpen } from './realtime/boardConnection.ts';
import { useBoardConnection } from './realtime/useBoardConnection.ts';
import { anonId as readAnonId } from './useAnonId.ts';
import { cameraDevice } from './useCamera.ts';
import { OWN, SPEC } from './texts.ts';
import { LOADING_PRESENCE_NAME, colorFor } from './presence.ts';

const DENIED_TEXT: Record<number, string> = {
  4403: ERRORS.ACCESS_DENIED.message,
  4404: ERRORS.BOARD_NOT_FOUND.message,
  4410: ERRORS.INVALID_SHARE_TOKEN.message,
};

export function BoardPageContainer() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const location = useLocation();
  const user = useAppSelector(selectUser);
  const signedIn = user !== null;
  const shareToken = params.get('token');
  const viaLink = shareToken !== null;
  // Read once per sign-in state: a background token refresh must not rebuild the live connection
  // (the connection refreshes its own token on 4401).
  const accessToken = useMemo(() => (signedIn ? localTokenStore.getAccessToken() : null), [signedIn]);
  const anonId = useMemo(() => (!signedIn && shareToken ? readAnonId() : null), [signedIn, shareToken]);

  const query = useGetBoardPageQuery({ id, shareToken, signedIn });
  const offlineAnswer = useOfflineAnswer(id, user?.id ?? null, viaLink, query);
  const answer = query.data ?? offlineAnswer;
  const fontsReady = useBoardFonts();
  // The camera is asked for now, beside the board and the offline copy, so it is known when the
  // canvas mounts (useCamera in the workspace reads the same cache entry; same rule: §6).
  const [cameraFor] = useState(cameraDevice);
  useGetCameraQuery({ id, device: cameraFor }, { skip: !signedIn || viaLink });
  useDocumentTitle(answer?.board.title ?? SPEC.defaultTitle);

  const [forceSave] = useForceSaveMutation();
  const recoverOnServer = useCallback(
    () =>
      forceSave({ boardId: id, clearData: true })
        .unwrap()
        .then(() => true)
        .catch(() => false),
    [forceSave, id],
  );
  const { connection, state } = useBoardConnection({ boardId: id, accessToken, shareToken, anonId, recoverOnServer });
  useEffect(() => {
    if (query.data) markOpen('board-answer');
  }, [query.data]);
  useEffect(() => {
    if (!connection) return;
    window.__wbBoard = connection;
    return () => {
      if (window.__wbBoard === connection) delete window.__wbBoard;
    };
  }, [connection]);

  // §6: a link visitor is present at once as 'Загрузка...' until the board answer names them.
  const userId = user?.id ?? null;
  useEffect(() => {
    const awareness = connection?.provider.awareness;
    if (!awareness || !viaLink || awareness.getLocalState()?.user) return;
    const id = userId ?? `anon-${anonId ?? connection.doc.clientID}`;
    awareness.setLocalState({ user: { id, name: LOADING_PRESENCE_NAME, color: colorFor(id) }, cursor: null, selection: [] });
  }, [connection, viaLink, userId, anonId]);

  if (query.isError && !offlineAnswer) {
    const failure = classifyLoadError(query.error, { shareToken, here: location.pathname + location.search });
    if (failure.kind === 'login') return <Navigate to={loginPath(failure.returnTo)} replace />;
    return <AccessDenied message={failure.message} signedIn={signedIn} />;
  }
  if (state.phase === 'denied') {
    return <AccessDenied message={DENIED_TEXT[state.deniedCode ?? 4403] ?? OWN.loadFailed} signedIn={signedIn} />;
  }
  if (!answer || (query.isFetching && !query.currentData && !offlineAnswer)) return <LoadingStage text={SPEC.loadingBoard} />;
  if (!connection) return <LoadingStage text={SPEC.connecting} />;
  if (!state.loaded || !fontsReady) return <LoadingStage text={state.everConnected ? SPEC.loadingObjects : SPEC.connecting} />;

  return (
    <BoardWorkspace
      key={`${id}:${connection.doc.guid}`}
      boardId={id}
      answer={answer}
      connection={connection}
      state={state}
      viaLink={viaLink}
      signedIn={signedIn}
      accessToken={accessToken}
      shareToken={shareToken}
      anonId={anonId}
      onReload={() => void query.refetch()}
    />
  );
}
