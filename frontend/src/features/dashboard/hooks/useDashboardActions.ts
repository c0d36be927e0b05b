import {
  useDeleteBoardMutation,
  useDeleteFolderMutation,
  useMoveBoardMutation,
  useMoveFolderToPositionMutation,
  useUpdateFolderMutation,
} from '../api.ts';
import type { BoardAction } from '../BoardCard.tsx';
import { errorText, folderMoveErrorText } from '../errors.ts';
import { folderDeletion, type FolderFilter, type FolderMove } from '../logic.ts';
import { useConfirm } from '../../../components/ui/index.ts';
import { notify } from '../../../lib/notify.ts';
import { OWN, SPEC } from '../texts.ts';
import type { BoardListItem, FolderNode } from '../types.ts';
import type { UpdateExpanded } from './useExpandedFolders.ts';

interface Deps {
  folders: readonly FolderNode[];
  folderFilter: FolderFilter;
  setFolderFilter: (f: FolderFilter) => void;
  updateExpanded: UpdateExpanded;
  openBoardDialog: (kind: 'rename' | 'access' | 'tags', board: BoardListItem) => void;
}

/** What the dashboard does on the server: board and folder moves and deletions, each ending in a toast. */
export function useDashboardActions({ folders, folderFilter, setFolderFilter, updateExpanded, openBoardDialog }: Deps) {
  const confirm = useConfirm();
  const [moveBoard] = useMoveBoardMutation();
  const [deleteBoard] = useDeleteBoardMutation();
  const [deleteFolder] = useDeleteFolderMutation();
  const [updateFolder] = useUpdateFolderMutation();
  const [moveToPosition] = useMoveFolderToPositionMutation();

  const moveBoardTo = async (board: BoardListItem, folderId: string | null) => {
    if (board.folder_id === folderId) return;
    try {
      await moveBoard({ board_id: board.id, folder_id: folderId }).unwrap();
      notify.success(SPEC.boardUpdated);
    } catch (err) {
      notify.error(errorText(err, SPEC.moveBoardError));
    }
  };

  const onBoardAction = async (action: BoardAction, board: BoardListItem) => {
    if (action === 'rename' || action === 'access' || action === 'tags') return openBoardDialog(action, board);
    if (action === 'root') return moveBoardTo(board, null);
    const yes = await confirm({
      title: OWN.deleteBoardTitle,
      message: OWN.deleteBoardConfirm(board.title),
      confirmLabel: OWN.delete,
    });
    if (!yes) return;
    try {
      await deleteBoard(board.id).unwrap();
      notify.success(SPEC.boardDeleted);
    } catch (err) {
      notify.error(errorText(err, SPEC.deleteBoardError));
    }
  };

  /** The server moves the subfolders up to the deleted folder's parent; the confirmation names them. */
  const onDeleteFolder = async (folder: FolderNode) => {
    const { subfolders, parentName } = folderDeletion(folders, folder);
    const yes = await confirm({
      title: OWN.deleteFolderTitle(folder.name),
      message: SPEC.deleteFolderConfirm,
      detail: subfolders.length > 0 ? OWN.deleteFolderSubfolders(subfolders, parentName) : undefined,
      confirmLabel: OWN.delete,
    });
    if (!yes) return;
    try {
      await deleteFolder(folder.id).unwrap();
      notify.success(SPEC.folderDeleted);
      if (folderFilter.kind === 'folder' && folderFilter.id === folder.id) setFolderFilter({ kind: 'all' });
    } catch (err) {
      notify.error(errorText(err, SPEC.deleteFolderError));
    }
  };

  const runFolderMove = async (move: FolderMove) => {
    try {
      if (move.kind === 'inside') {
        await updateFolder({ id: move.folder_id, parent_id: move.parent_id }).unwrap();
        if (move.parent_id) updateExpanded((s) => s.add(move.parent_id!));
      } else {
        const { kind: _kind, ...body } = move;
        await moveToPosition(body).unwrap();
      }
      notify.success(SPEC.folderMoved);
    } catch (err) {
      notify.error(folderMoveErrorText(err));
    }
  };

  return { moveBoardTo, onBoardAction, onDeleteFolder, runFolderMove };
}
