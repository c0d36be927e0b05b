/**
 * The loaded board: header, canvas, footer, presence overlay, reactions, owner dialogs.
 * Owner-only actions (§6) appear only for the owner; the canvas gets the role and enforces the
 * read-only modes itself, and the server refuses read-only writes anyway.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { BoardBackground, BoardListItem, CameraPosition, ShareRole } from '@wb/contracts';
import { REACTABLE_TYPES, getObjects, imageSrcAllowed, objectToJSON, type Reaction } from '@wb/board-model';
import { BoardCanvas, createImageUrlSigner, uploadBoardImage, type BoardCanvasHandle } from '../canvas/index.ts';
import { AccessModal, type AccessModalTexts } from '../../dashboard/AccessModal.tsx';
import { notify } from '../../../lib/notify.ts';
import { BoardFooter } from './BoardFooter.tsx';
import { BoardHeader } from './BoardHeader.tsx';
import { ExportMenu, ExportOverlay, useBoardExport } from '../export/index.ts';
import { SettingUpOverlay } from './LoadStates.tsx';
import { PresenceOverlay } from './PresenceOverlay.tsx';
import { SnapshotsDialog } from './SnapshotsDialog.tsx';
import { useForceSaveMutation, useSetBackgroundMutation, type BoardPageAnswer } from './boardPageApi.ts';
import type { BoardConnection, ConnectionState } from './realtime/boardConnection.ts';
import { ReactionBar } from './reactions/ReactionBar.tsx';
import {
  installReactionHandler,
  toggleOwnReaction,
  toggleReactionViaServer,
} from './reactions/sendReaction.ts';
import { useFavoriteEmojis } from './reactions/useFavoriteEmojis.ts';
import { OWN, SPEC, linkText, savedText, sharingText } from './texts.ts';
import { useCamera } from './useCamera.ts';
import { useLocalPresence } from './useLocalPresence.ts';
import styles from './boardPage.module.css';

const ROLE_LABEL: Record<ShareRole, string> = {
  viewer: SPEC.viewerLabel,
  guest: SPEC.guestLabel,
  editor: SPEC.editorLabel,
};

const ACCESS_TEXTS: AccessModalTexts = {
  sharing: sharingText,
  role: (role, enabled) => linkText(ROLE_LABEL[role], enabled ? 'создана' : 'удалена'),
  rotated: (roles) => roles.map((r) => linkText(ROLE_LABEL[r], 'обновлена')).join('. '),
  sharingError: SPEC.sharingError,
  linksChangeError: SPEC.linkChangeError,
  rotateError: SPEC.linkRotateError,
  roleLabels: ROLE_LABEL,
};

export interface WorkspaceProps {
  boardId: string;
  answer: BoardPageAnswer;
  connection: BoardConnection;
  state: ConnectionState;
  viaLink: boolean;
  signedIn: boolean;
  accessToken: string | null;
  shareToken: string | null;
  anonId: string | null;
  onReload(): void;
}

export function BoardWorkspace(props: WorkspaceProps) {
  const { boardId, answer, connection, state, viaLink, signedIn, accessToken, shareToken, anonId, onReload } =
    props;
  const { board, canvasLimits, currentUser } = answer;
  const role = board.userRole;
  const isOwner = role === 'owner';
  const readOnly = role === 'viewer' || role === 'guest';
  const canvasRef = useRef<BoardCanvasHandle>(null);
  const undoOrigin = useMemo(
    () => ({ user: currentUser?.id ?? anonId ?? 'local' }),
    [currentUser?.id, anonId],
  );

  const [objectCount, setObjectCount] = useState(() => getObjects(connection.doc).size);
  const [cursor, setCursorState] = useState<{ x: number; y: number } | null>(null);
  const [background, setBackgroundState] = useState<BoardBackground>(board.background);
  const [dialog, setDialog] = useState<'access' | 'snapshots' | null>(null);

  useEffect(() => setBackgroundState(board.background), [board.background]);
  useEffect(() => installReactionHandler(connection.provider), [connection]);

  const anonPresenceId = `anon-${anonId ?? connection.doc.clientID}`;
  const who = currentUser ?? (viaLink ? { id: anonPresenceId, name: OWN.guest } : null);
  const presence = useLocalPresence(connection.provider.awareness, who, anonPresenceId);
  // Camera is personal and needs a login; a link never stores one (§6, §7).
  const camera = useCamera({ boardId, persist: signedIn && !viaLink, objectsLoaded: state.loaded });

  // Images go to the board's image store (never into the document) and are read back with the
  // credential this page was opened with: the share token for a link, else the access token.
  const uploadImage = useCallback(
    (file: File) => uploadBoardImage(boardId, file, { accessToken, shareToken }),
    [boardId, accessToken, shareToken],
  );
  // Read through short-lived signed URLs (the credential goes in a header, never into an <img> URL).
  const resolveImageSrc = useMemo(
    () => createImageUrlSigner(boardId, viaLink ? { shareToken } : { accessToken }),
    [boardId, viaLink, shareToken, accessToken],
  );
  const acceptsImageSrc = useCallback((src: string) => imageSrcAllowed(src, boardId), [boardId]);
  const toScreen = useCallback((p: { x: number; y: number }) => canvasRef.current?.toScreen(p) ?? null, []);
  const onCursorMove = useCallback(
    (p: { x: number; y: number } | null) => {
      if (p) setCursorState(p);
      presence.setCursor(p);
    },
    [presence],
  );
  const onCameraChange = useCallback((c: CameraPosition) => camera.onCameraChange(c), [camera]);

  // ---- owner actions ----
  const [forceSave, saveState] = useForceSaveMutation();
  const save = async () => {
    try {
      const res = await forceSave({ boardId }).unwrap();
      if (res.duplicate) notify.info(SPEC.alreadySaved);
      else notify.success(savedText(res.objects_count));
    } catch {
      notify.error(SPEC.saveError);
    }
  };
  const [patchBackground] = useSetBackgroundMutation();
  const changeBackground = async (next: BoardBackground) => {
    const previous = background;
    setBackgroundState(next);
    try {
      await patchBackground({ id: boardId, background: next }).unwrap();
      notify.success(SPEC.backgroundChanged);
    } catch {
      setBackgroundState(previous);
      notify.error(SPEC.backgroundError);
    }
  };
  // Export (features/board/export): menu, area selection through the canvas, overlay, download, toasts.
  const startAreaSelection = useCallback(() => canvasRef.current?.setTool('export-select'), []);
  const boardExport = useBoardExport({ boardId, accessToken, isOwner, startAreaSelection });

  // ---- reactions (§6: owner, editor and viewer; never guests) ----
  const canReact = role !== 'guest';
  const favorites = useFavoriteEmojis(signedIn);
  const selectedReactable = useSelectedReactable(connection, presence.selection);
  const react = (emoji: string) => {
    if (!selectedReactable) return;
    const target = {
      doc: connection.doc,
      provider: connection.provider,
      boardId,
      objectId: selectedReactable.id,
      emoji,
    };
    if (!readOnly && currentUser) {
      toggleOwnReaction(target, currentUser, undoOrigin);
      return;
    }
    toggleReactionViaServer(target, { accessToken, shareToken, anonId }).catch((err: unknown) =>
      notify.error(err instanceof Error ? err.message : OWN.reactionRefused),
    );
  };

  const ownerActions = isOwner
    ? {
        onAccess: () => setDialog('access'),
        onSave: save,
        saving: saveState.isLoading,
        background,
        onBackground: changeBackground,
        onSnapshots: () => setDialog('snapshots'),
        exportMenu: (
          <ExportMenu
            formats={boardExport.formats}
            onChoose={boardExport.choose}
            disabled={boardExport.exporting !== null}
            triggerClassName={styles.headerButton}
          />
        ),
      }
    : null;

  const roleLabel = role === 'guest' ? SPEC.guestLabel : role === 'viewer' ? SPEC.viewerLabel : null;

  return (
    <div className={styles.page} data-testid="board-page" data-board-id={boardId} data-role={role}>
      <BoardHeader
        title={board.title || SPEC.defaultTitle}
        participants={presence.participants}
        objectCount={objectCount}
        userName={currentUser?.name ?? null}
        roleLabel={roleLabel}
        owner={ownerActions}
      />
      <main className={styles.canvasArea}>
        <BoardCanvas
          ref={canvasRef}
          doc={connection.doc}
          role={role}
          limits={canvasBounds(canvasLimits)}
          background={background}
          camera={camera.initial}
          viewReady={camera.ready}
          onCameraChange={onCameraChange}
          awareness={connection.provider.awareness}
          undoOrigin={undoOrigin}
          onCursorMove={onCursorMove}
          onExportArea={boardExport.onExportArea}
          onObjectCountChange={setObjectCount}
          uploadImage={uploadImage}
          resolveImageSrc={resolveImageSrc}
          acceptsImageSrc={acceptsImageSrc}
          onMessage={(text, kind) => (kind === 'error' ? notify.error(text) : notify.info(text))}
        />
        <PresenceOverlay awareness={connection.provider.awareness} doc={connection.doc} toScreen={toScreen} />
        {canReact && selectedReactable ? (
          <ReactionBar
            reactions={selectedReactable.reactions}
            userId={readOnly && !currentUser ? null : (currentUser?.id ?? null)}
            quick={favorites.quick}
            favorites={favorites.favorites}
            canEditFavorites={favorites.canEdit}
            onToggleFavorite={favorites.toggle}
            onReact={react}
          />
        ) : null}
        {!camera.ready ? <SettingUpOverlay /> : null}
        <ExportOverlay format={boardExport.exporting} />
      </main>
      <BoardFooter
        objectCount={objectCount}
        cursor={cursor}
        limits={canvasLimits}
        phase={state.phase}
        viaLink={viaLink}
        onRetry={() => connection.retry()}
      />
      {dialog === 'access' && isOwner ? (
        <AccessModal
          board={board as unknown as BoardListItem}
          onClose={() => setDialog(null)}
          texts={ACCESS_TEXTS}
          onChanged={onReload}
        />
      ) : null}
      {dialog === 'snapshots' && isOwner ? (
        <SnapshotsDialog boardId={boardId} onClose={() => setDialog(null)} />
      ) : null}
    </div>
  );
}

/** The boards answer allows nulls for an unbounded canvas; the canvas wants numbers and the flag. */
function canvasBounds(l: BoardPageAnswer['canvasLimits']) {
  const unlimited = l.unlimited || l.max_width === null || l.max_height === null;
  return { max_width: l.max_width ?? 0, max_height: l.max_height ?? 0, unlimited };
}

/** The one selected sticky or image, live (its reactions change under us). */
function useSelectedReactable(connection: BoardConnection, selection: string[]) {
  const [value, setValue] = useState<{ id: string; reactions: Reaction[] } | null>(null);
  const id = selection.length === 1 ? selection[0] : null;
  useEffect(() => {
    if (!id) {
      setValue(null);
      return;
    }
    const objects = getObjects(connection.doc);
    const read = () => {
      const map = objects.get(id);
      const obj = map ? objectToJSON(map) : null;
      setValue(
        obj && REACTABLE_TYPES.includes(obj.type)
          ? { id, reactions: 'reactions' in obj ? obj.reactions : [] }
          : null,
      );
    };
    read();
    objects.observeDeep(read);
    return () => objects.unobserveDeep(read);
  }, [connection, id]);
  return value;
}
